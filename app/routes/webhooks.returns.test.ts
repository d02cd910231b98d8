import { describe, expect, it } from "vitest";

import { findLabel } from "~/labels/label-repository.server";

import { callRoute } from "../../test/helpers/admin-form-requests";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { BAD_WEBHOOK_HMAC, createWebhookRequest } from "../../test/helpers/shopify-requests";
import { action } from "./webhooks.returns";

const RETURN = "gid://shopify/Return/9101";

const deliver = (topic: string, payload: unknown, options: { hmac?: string } = {}) =>
  callRoute(
    action,
    createWebhookRequest({ topic, path: "/webhooks/returns", payload, ...options }),
  ) as Promise<Response>;

async function returnLabel(status: string) {
  return insertLabelRow({
    status,
    kind: "return",
    returnGid: RETURN,
    fulfillmentOrderGid: `gid://shopify/ReverseFulfillmentOrder/${Math.floor(Math.random() * 1e9)}`,
  });
}

describe("return webhooks", () => {
  it.each(["returns/cancel", "returns/decline"])(
    "%s flags the return's bought label for the merchant to void, once",
    async (topic) => {
      const bought = await returnLabel("fulfilled");
      const payload = { id: 9101, admin_graphql_api_id: RETURN, status: "canceled" };
      expect((await deliver(topic, payload)).status).toBe(200);
      expect((await deliver(topic, payload)).status).toBe(200);
      const label = await findLabel((await import("~/db.server")).default, bought.shop, bought.id);
      expect(label?.attention?.reason).toBe("return_closed");
      expect(label?.status).toBe("fulfilled");
    },
  );

  it("leaves labels alone for a request or an approval, and for another return", async () => {
    const bought = await returnLabel("fulfilled");
    expect((await deliver("returns/approve", { admin_graphql_api_id: RETURN })).status).toBe(200);
    expect((await deliver("returns/cancel", { admin_graphql_api_id: "gid://shopify/Return/1" })).status).toBe(200);
    const label = await findLabel((await import("~/db.server")).default, bought.shop, bought.id);
    expect(label?.attention).toBeNull();
  });

  it("refuses a delivery with a forged HMAC and changes nothing", async () => {
    const bought = await returnLabel("fulfilled");
    const refused = await deliver("returns/cancel", { admin_graphql_api_id: RETURN }, { hmac: BAD_WEBHOOK_HMAC });
    expect(refused.status).toBe(401);
    const label = await findLabel((await import("~/db.server")).default, bought.shop, bought.id);
    expect(label?.attention).toBeNull();
  });
});
