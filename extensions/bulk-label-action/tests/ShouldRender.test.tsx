import { getExtension } from "@shopify/ui-extensions-tester";
import { describe, expect, it, vi } from "vitest";

import { MAX_ORDERS_CHECKED } from "../../shared/should-render";
import { harnessExtension } from "../../shared/testing";
import shouldRender from "../src/ShouldRender";

const extension = getExtension("admin.order-index.selection-action.should-render");

const ORDER_IDS = ["gid://shopify/Order/1", "gid://shopify/Order/2", "gid://shopify/Order/3"];
harnessExtension(extension, ORDER_IDS);

/** The Admin API answering for the selection: per order, its fulfillment orders' status and method. */
function answerWith(orders: [status: string, methodType: string][][]) {
  const query = vi.fn(async () => ({
    data: {
      nodes: orders.map((fos, i) => ({
        id: ORDER_IDS[i],
        fulfillmentOrders: {
          nodes: fos.map(([status, methodType]) => ({ status, deliveryMethod: { methodType } })),
        },
      })),
    },
  }));
  extension.shopify.query = query as unknown as typeof extension.shopify.query;
  return query;
}

describe("whether Create labels shows for a selection of orders", () => {
  it("shows when one selected order of several can still be shipped by a carrier", async () => {
    const query = answerWith([[["OPEN", "PICK_UP"]], [["CLOSED", "SHIPPING"]], [["OPEN", "SHIPPING"]]]);
    expect(await shouldRender()).toEqual({ display: true });
    expect(query).toHaveBeenCalledWith(expect.any(String), { variables: { ids: ORDER_IDS } });
  });

  it("hides when every selected order is picked up, delivered locally or fulfilled", async () => {
    answerWith([[["OPEN", "PICK_UP"]], [["IN_PROGRESS", "LOCAL"]], [["CLOSED", "SHIPPING"]]]);
    expect(await shouldRender()).toEqual({ display: false });
  });

  it("shows without asking Shopify when more orders are selected than one query checks", async () => {
    const query = answerWith([]);
    extension.shopify.data = {
      selected: Array.from({ length: MAX_ORDERS_CHECKED + 1 }, (_, i) => ({ id: `gid://shopify/Order/${i + 1}` })),
    };
    expect(await shouldRender()).toEqual({ display: true });
    expect(query).not.toHaveBeenCalled();
  });

  it("shows when Shopify cannot answer, so the action can say what is wrong", async () => {
    extension.shopify.query = vi.fn(async () => ({ data: undefined })) as unknown as typeof extension.shopify.query;
    expect(await shouldRender()).toEqual({ display: true });
  });
});
