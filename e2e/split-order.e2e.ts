import type { Frame } from "playwright-core";
import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { openApp, shippingAccount, shopifyFulfillments, withDemoBrowser } from "./support/demo";
import {
  checkScreen,
  chooseRate,
  confirmBuy,
  getRates,
  openBuyConfirmation,
  openOrderFromList,
  see,
  trackingNumbersOnPage,
} from "./support/label-flow";

const browser = withDemoBrowser();

/** Rates, a draft and Buy for the shipment shown; returns its tracking numbers. */
async function buyShownShipment(frame: Frame): Promise<string[]> {
  await getRates(frame);
  const amount = await chooseRate(frame);
  await confirmBuy(await openBuyConfirmation(frame), amount);
  await see(frame.getByRole("heading", { name: /^Label bought/ }), 30_000);
  await see(frame.getByText("Tracking added to the fulfillment in Shopify"), 30_000);
  return trackingNumbersOnPage(frame);
}

describe("a split order", () => {
  it("ships each fulfillment order from its own location under its own label", async () => {
    const guarded = await openGuardedPage(browser(), "split-order");
    const frame = await openApp(guarded.page, "/app/orders");
    await openOrderFromList(frame, "#1016");
    expect(await frame.getByText("2 shipments").isVisible()).toBe(true);

    // Shipment 1 (Brooklyn) holds the mug; shipment 2 (Reno) the duvet cover and the skillet.
    const first = frame.getByRole("tab", { name: /^Shipment 1 · Brooklyn Warehouse/ });
    const second = frame.getByRole("tab", { name: /^Shipment 2 · Reno Fulfillment Center/ });
    expect(await first.getAttribute("aria-selected")).toBe("true");
    await see(frame.getByText("Hand-thrown Stoneware Mug"));
    expect(await frame.getByText("Cast Iron Skillet 12 in").count()).toBe(0);
    await checkScreen(guarded, frame, "shipment-1");
    const firstTracking = await buyShownShipment(frame);
    await checkScreen(guarded, frame, "shipment-1-bought");

    await second.click();
    await see(frame.getByText("Cast Iron Skillet 12 in"));
    await see(frame.getByRole("button", { name: "Get rates" }));
    expect(await frame.getByRole("tab", { name: /^Shipment 1 ·/ }).innerText()).not.toMatch(/No label/);
    await checkScreen(guarded, frame, "shipment-2");
    const secondTracking = await buyShownShipment(frame);
    await checkScreen(guarded, frame, "shipment-2-bought");

    // Two charges, two fulfillments: each with its own tracking and exactly its shipment's items.
    expect((await shippingAccount()).charges).toHaveLength(2);
    const fulfillments = await shopifyFulfillments("#1016");
    expect(fulfillments).toHaveLength(2);
    const byTracking = (tracking: string[]) =>
      fulfillments.find((f) => f.trackingInfo.some((t) => t.number === tracking[0]));
    expect(byTracking(firstTracking)?.lineItems.map((l) => [l.title, l.quantity])).toEqual([
      ["Hand-thrown Stoneware Mug", 1],
    ]);
    expect(
      byTracking(secondTracking)
        ?.lineItems.map((l) => [l.title, l.quantity])
        .sort(),
    ).toEqual([
      ["Cast Iron Skillet 12 in", 1],
      ["Stonewashed Linen Duvet Cover, Queen", 1],
    ]);
    expect(byTracking(firstTracking)?.fulfillmentOrderIds).not.toEqual(byTracking(secondTracking)?.fulfillmentOrderIds);

    guarded.assertClean();
    await guarded.close();
  });
});
