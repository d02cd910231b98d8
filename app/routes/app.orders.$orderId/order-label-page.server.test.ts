import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { saveShopSettings, setShippingApiKey } from "~/settings/settings.server";
import { draftShipment } from "~/shipments/draft-shipment.server";

import { createShippingEmulator } from "../../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../../emulator/shopify/emulator";
import {
  createEmulators,
  DEMO_ORG,
  quoteSeededOrder,
  readyDraftFor,
  TEST_LABEL_SHOP,
} from "../../../test/helpers/labels";
import { routeShippingToEmulator, setupMockServer } from "../../../test/helpers/msw";
import { loadOrderLabelPage } from "./order-label-page.server";

setupMockServer();
const SHOP = "policy-shop.myshopify.com";

async function setUp(policy: "never" | "on_request" | "auto_new") {
  const shopify = createShopifyAdminEmulator();
  const shipping = routeShippingToEmulator(createShippingEmulator());
  const key = await setShippingApiKey(db, SHOP, "sk_live_demo");
  if (!key.ok) throw new Error(key.error.logMessage);
  const saved = await saveShopSettings(db, SHOP, { addressValidationPolicy: policy });
  if (!saved.ok) throw new Error(saved.error.logMessage);
  const order = shopify.findOrderByName("#1001");
  if (!order) throw new Error("seed: no #1001");
  const load = () => loadOrderLabelPage({ db, shop: SHOP, admin: shopify.graphql }, order.id as never);
  return { shipping, load };
}

describe("the address-validation policy on the order label page", () => {
  it("validates a new US address on first view when the shop chose automatic, and bills it once", async () => {
    const { shipping, load } = await setUp("auto_new");
    const first = await load();
    expect(first.ok && first.value.fulfillmentOrders[0]?.storedValidation).toMatchObject({ billedCents: 5 });
    await load();
    expect(shipping.validationsBilled(DEMO_ORG)).toBe(1);
  });

  it.each(["never", "on_request"] as const)("never validates on view when the policy is %s", async (policy) => {
    const { shipping, load } = await setUp(policy);
    const page = await load();
    expect(page.ok && page.value.fulfillmentOrders[0]?.storedValidation).toBeNull();
    expect(shipping.validationsBilled(DEMO_ORG)).toBe(0);
  });
});

describe("a drafted shipment on the order label page", () => {
  it("shows what was drafted, edits included, rather than the prefill", async () => {
    const emulators = createEmulators();
    const quoted = await quoteSeededOrder(emulators, "#1001");
    const { client, input, prefilled } = quoted;
    const drafted = await draftShipment(
      { db, shop: TEST_LABEL_SHOP, shipping: client },
      readyDraftFor(quoted, { request: { ...prefilled.request, label_size: "4x8", reference: "Gift for Emily" } }),
    );
    if (!drafted.ok) throw new Error(drafted.error.logMessage);
    const page = await loadOrderLabelPage(
      { db, shop: TEST_LABEL_SHOP, admin: emulators.shopify.graphql },
      input.orderGid,
    );
    const section = page.ok ? page.value.fulfillmentOrders[0] : null;
    expect(section?.prefill.request).toMatchObject({ label_size: "4x8", reference: "Gift for Emily" });
    expect(section?.prefill.lineItems).toEqual(input.lineItems);
  });
});
