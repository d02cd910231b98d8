import { describe, expect, it } from "vitest";

import { findLabel } from "~/labels/label-repository.server";
import { getSettingsView, saveShopSettings } from "~/settings/settings.server";

import { callRoute, createAdminFormRequest } from "../../../test/helpers/admin-form-requests";
import { mockTokenExchange, setupMockServer } from "../../../test/helpers/msw";
import { draftOnOrderPage, orderIdOf, setUpShop } from "../../../test/helpers/order-page-labels";
import { TEST_SHOP } from "../../../test/setup/test-env";
import db from "../../db.server";
import { action } from "./route";

// Scan to ship, through signed requests against both emulators: by default a scan opens the
// order; with the shop's setting, an order's one ready draft is bought once (counted at the
// shipping emulator) and its tracking reaches Shopify.

setupMockServer();

const DEMO_ORG = "org_demo";

async function scan(orderNumber: string) {
  const answer = await callRoute(action, createAdminFormRequest("/app", { orderNumber }), {});
  if (answer instanceof Response) {
    const location = answer.headers.get("Location");
    const body = location ? null : ((await answer.json()) as Record<string, unknown>);
    return { status: answer.status, location, body };
  }
  return { status: 200, location: null, body: answer as unknown as Record<string, unknown> };
}

async function turnOnScanBuying() {
  const saved = await saveShopSettings(db, TEST_SHOP, { scanBuysDraft: true });
  expect(saved.ok).toBe(true);
}

describe("scan to ship", () => {
  it("opens the scanned order when the shop has not chosen to buy on scan, even with a draft", async () => {
    const { shopify, shipping } = await setUpShop();
    await draftOnOrderPage(shopify, "#1002");
    expect((await getSettingsView(db, TEST_SHOP)).scanBuysDraft).toBe(false);

    const answer = await scan("#1002");

    expect(answer.status).toBe(302);
    expect(answer.location).toContain(`/app/orders/${orderIdOf(shopify, "#1002")}`);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("buys the scanned order's draft once, writes its tracking to Shopify, and a second scan buys nothing", async () => {
    const { shopify, shipping } = await setUpShop();
    const labelId = await draftOnOrderPage(shopify, "#1002");
    await turnOnScanBuying();

    const first = await scan("1002\n");

    expect(first.status).toBe(200);
    const bought = first.body?.bought as { orderName: string; label: { id: string; chargedCents: number } };
    expect(bought.orderName).toBe("#1002");
    expect(bought.label.id).toBe(labelId);
    const charges = shipping.charges(DEMO_ORG);
    expect(charges).toHaveLength(1);
    expect(charges[0]?.amountCents).toBe(bought.label.chargedCents);
    const label = await findLabel(db, TEST_SHOP, labelId);
    expect(label?.status).toBe("fulfilled");
    const fulfillments = shopify.fulfillments().filter((f) => f.trackingInfo.some((t) => t.number));
    expect(fulfillments).toHaveLength(1);

    // The scanner fires again: the label is bought, so the order opens; nothing more is charged.
    const again = await scan("#1002");
    expect(again.location).toContain(`/app/orders/${orderIdOf(shopify, "#1002")}`);
    expect(shipping.charges(DEMO_ORG)).toHaveLength(1);
  });

  it("opens an order with no draft instead of buying anything", async () => {
    const { shopify, shipping } = await setUpShop();
    await turnOnScanBuying();

    const answer = await scan("#1001");

    expect(answer.location).toContain(`/app/orders/${orderIdOf(shopify, "#1001")}`);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("buys nothing for a staff member Shopify does not let fulfil orders, and says so", async () => {
    const { shopify, shipping } = await setUpShop();
    await draftOnOrderPage(shopify, "#1002");
    await turnOnScanBuying();
    mockTokenExchange(TEST_SHOP, "read_orders");

    const answer = await scan("#1002");

    expect(answer.status).toBe(403);
    expect(String((answer.body?.error as { message: string }).message)).toMatch(/\w/);
    expect(shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("names the field when the scan is not an order number", async () => {
    await setUpShop();
    await turnOnScanBuying();
    const answer = await scan("not an order!");
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: { fields: [{ path: "orderNumber" }] } });
  });
});
