// This test reads the Admin schema from disk; the extensions' tsconfig leaves Node's types out
// (vitest 3's own types used to bring them in).
/// <reference types="node" />
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { getExtension } from "@shopify/ui-extensions-tester";
import { buildClientSchema, type IntrospectionQuery, parse, validate } from "graphql";
import { describe, expect, it, vi } from "vitest";

import { SHIPPABLE_ORDERS_QUERY } from "../../shared/should-render";
import { harnessExtension } from "../../shared/testing";
import shouldRender from "../src/ShouldRender";

const extension = getExtension("admin.order-details.action.should-render");

const ORDER_GID = "gid://shopify/Order/42";
harnessExtension(extension, [ORDER_GID]);

type FulfillmentOrder = { status: string; methodType: string };

/** The Admin API answering the query for one order with these fulfillment orders. */
function answerWith(fulfillmentOrders: FulfillmentOrder[]) {
  const query = vi.fn(async () => ({
    data: {
      nodes: [
        {
          id: ORDER_GID,
          fulfillmentOrders: {
            nodes: fulfillmentOrders.map((fo) => ({
              status: fo.status,
              deliveryMethod: { methodType: fo.methodType },
            })),
          },
        },
      ],
    },
  }));
  extension.shopify.query = query as unknown as typeof extension.shopify.query;
  return query;
}

describe("whether Create label shows on an order page", () => {
  it("shows on an order with an open fulfillment order shipped by a carrier, asking only about that order", async () => {
    const query = answerWith([
      { status: "CLOSED", methodType: "SHIPPING" },
      { status: "OPEN", methodType: "SHIPPING" },
    ]);
    expect(await shouldRender()).toEqual({ display: true });
    expect(query).toHaveBeenCalledWith(SHIPPABLE_ORDERS_QUERY, { variables: { ids: [ORDER_GID] } });
  });

  it("shows on a held or scheduled shipment, which the action then explains", async () => {
    answerWith([{ status: "ON_HOLD", methodType: "SHIPPING" }]);
    expect(await shouldRender()).toEqual({ display: true });
    answerWith([{ status: "SCHEDULED", methodType: "SHIPPING" }]);
    expect(await shouldRender()).toEqual({ display: true });
  });

  it.each([
    ["picked up in store", [{ status: "OPEN", methodType: "PICK_UP" }]],
    ["delivered locally", [{ status: "OPEN", methodType: "LOCAL" }]],
    ["already fulfilled", [{ status: "CLOSED", methodType: "SHIPPING" }]],
    ["cancelled", [{ status: "CANCELLED", methodType: "SHIPPING" }]],
    ["with nothing to deliver", [{ status: "OPEN", methodType: "NONE" }]],
    ["with no fulfillment order the app may see", []],
  ])("hides on an order %s", async (_, fulfillmentOrders) => {
    answerWith(fulfillmentOrders);
    expect(await shouldRender()).toEqual({ display: false });
  });

  it("shows when Shopify answers with errors or not at all, so the action can say what is wrong", async () => {
    extension.shopify.query = vi.fn(async () => ({
      errors: [{ message: "Throttled" }],
    })) as unknown as typeof extension.shopify.query;
    expect(await shouldRender()).toEqual({ display: true });
    extension.shopify.query = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof extension.shopify.query;
    expect(await shouldRender()).toEqual({ display: true });
  });

  it("asks a query the Admin API accepts", () => {
    const introspection = JSON.parse(
      readFileSync(join(fileURLToPath(import.meta.url), "../../../../app/types/admin-2026-10.schema.json"), "utf8"),
    ) as {
      data: IntrospectionQuery;
    };
    const errors = validate(buildClientSchema(introspection.data), parse(SHIPPABLE_ORDERS_QUERY));
    expect(errors.map((e) => e.message)).toEqual([]);
  });
});
