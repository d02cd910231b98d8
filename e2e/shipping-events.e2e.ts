import type { Frame, Locator } from "playwright-core";
import { describe, expect, it } from "vitest";

import { describeService } from "~/shipping/services";

import { type GuardedPage, openGuardedPage } from "./support/browser";
import {
  openApp,
  setShippingFaults,
  shippingAccount,
  shopifyFulfillments,
  shopifyOrder,
  withDemoBrowser,
} from "./support/demo";
import { checkScreen, see } from "./support/label-flow";
import {
  buyOnServiceDashboard,
  draftLabelAtService,
  scanParcel,
  type ServiceAddress,
  serviceEventDeliveries,
} from "./support/shipping-service";

const browser = withDemoBrowser();

// The service delivers at once; the worker polls its queue about once a second, then asks Shopify.
const EVENT_TIMEOUT_MS = 45_000;

/** Reopens a screen of the app (as a merchant reloads it) until `ready` finds what the event changed. */
async function reloadUntil(
  guarded: GuardedPage,
  path: string,
  ready: (frame: Frame) => Promise<Locator | null>,
  what: string,
): Promise<{ frame: Frame; found: Locator }> {
  const deadline = Date.now() + EVENT_TIMEOUT_MS;
  for (;;) {
    const frame = await openApp(guarded.page, path);
    const found = await ready(frame);
    if (found) return { frame, found };
    if (Date.now() > deadline)
      throw new Error(`${what}: not shown within ${EVENT_TIMEOUT_MS / 1000} s of reloading ${path}`);
    await guarded.page.waitForTimeout(1000);
  }
}

/** The row of the Labels screen for an order, once it says `text`; null before. */
function labelRowSaying(orderName: string, text: RegExp) {
  return async (frame: Frame) => {
    await see(frame.getByRole("heading", { name: "Labels", level: 1 }));
    const row = frame.getByRole("row").filter({ has: frame.getByRole("link", { name: orderName, exact: true }) });
    if ((await row.count()) === 0) return null;
    return text.test(await row.first().innerText()) ? row.first() : null;
  };
}

describe("a label bought at the shipping service, outside the app", () => {
  it("shows on Labels with its tracking in Shopify, and its parcel's journey reaches the order page and Shopify", async () => {
    const guarded = await openGuardedPage(browser(), "shipping-events");
    // The merchant has the app open (the store's offline session exists, as for any installed app).
    let frame = await openApp(guarded.page, "/app/orders");
    await see(frame.getByRole("link", { name: "#1001", exact: true }));

    // Another integration drafts #1001 at the service, and someone buys it on the service's dashboard.
    const order = await shopifyOrder("#1001");
    const shipTo = order.shippingAddress;
    const shipFrom = order.fulfillmentOrders[0]?.assignedLocation;
    if (!shipTo || !shipFrom) throw new Error("#1001 has no ship-to address or fulfillment order");
    const address = (a: typeof shipTo, name: string): ServiceAddress => ({
      name,
      street1: a.address1 ?? "",
      ...(a.address2 ? { street2: a.address2 } : {}),
      city: a.city ?? "",
      state: a.provinceCode ?? null,
      zip: a.zip ?? "",
      country: a.countryCodeV2 ?? a.countryCode ?? "US",
      ...(a.phone ? { phone: a.phone } : {}),
    });
    const { label: draft, rate } = await draftLabelAtService({
      from: address(shipFrom, shipFrom.name ?? "Demo shop"),
      to: address(shipTo, shipTo.name ?? `${shipTo.firstName ?? ""} ${shipTo.lastName ?? ""}`.trim()),
      parcel: { weight: 48, length: 12, width: 10, height: 6, weight_unit: "oz" },
      shopifyOrderId: order.numericId,
      reference: order.name,
      pick: (rates) => rates.find((r) => r.service === "UPS Ground") ?? rates[0],
    });
    expect(draft).toMatchObject({ status: "draft", platform: "shopify", platform_order_id: order.numericId });
    // The first delivery of the purchase fails (the app's host answers 500): the demo's service
    // retries it seconds later, not after the contract's minute.
    await setShippingFaults({ failures: [{ endpoint: "DELIVERY", kind: "server_error", times: 1 }] });
    const bought = await buyOnServiceDashboard(draft.id);
    const [tracking] = bought.tracking_numbers;
    if (!tracking) throw new Error(`the purchase of ${draft.id} gave no tracking number`);

    // Labels lists it, bought outside the app, fulfilled, its tracking in Shopify.
    const purchased = await reloadUntil(
      guarded,
      "/app/labels",
      labelRowSaying("#1001", /Bought outside the app[\s\S]*In Shopify/),
      "#1001 bought outside the app, tracking in Shopify",
    );
    frame = purchased.frame;
    const row = await purchased.found.innerText();
    expect(row).toMatch(/Fulfilled/);
    expect(row).toContain(tracking);
    // The service as every screen names it: the carrier written once ("UPS Ground").
    expect(row).toContain(describeService({ carrier: rate.carrier, service: rate.service }));
    await checkScreen(guarded, frame, "labels-bought-outside");

    // In Shopify: one fulfillment for #1001, carrying that tracking number.
    const fulfillments = await shopifyFulfillments("#1001");
    expect(fulfillments).toHaveLength(1);
    expect(fulfillments[0]?.trackingInfo.map((t) => t.number)).toEqual([tracking]);
    // As the order page says ("The customer was notified"): the shop's setting, on in the demo.
    expect(fulfillments[0]?.notifyCustomer).toBe(true);

    // The carrier scans the parcel: in transit, then delivered (occurred_at increasing).
    const departed = new Date();
    await scanParcel(draft.id, { status: "in_transit", occurred_at: departed.toISOString() });
    const inTransit = await reloadUntil(
      guarded,
      `/app/orders/${order.numericId}`,
      async (f) => {
        await see(f.getByRole("heading", { name: "Order #1001" }));
        const badge = f.getByText("In transit", { exact: true });
        return (await badge.count()) > 0 ? badge.first() : null;
      },
      "#1001's parcel in transit on the order page",
    );
    frame = inTransit.frame;
    await see(frame.getByText("Bought outside the app"));
    await checkScreen(guarded, frame, "order-in-transit");

    const delivered = new Date(departed.getTime() + 60_000);
    await scanParcel(draft.id, { status: "delivered", occurred_at: delivered.toISOString() });
    const onOrderPage = await reloadUntil(
      guarded,
      `/app/orders/${order.numericId}`,
      async (f) => {
        await see(f.getByRole("heading", { name: "Order #1001" }));
        const badge = f.getByText("Delivered", { exact: true });
        return (await badge.count()) > 0 ? badge.first() : null;
      },
      "#1001's parcel delivered on the order page",
    );
    frame = onOrderPage.frame;
    expect(await frame.getByText("In transit", { exact: true }).count(), "only the latest status is shown").toBe(0);
    await checkScreen(guarded, frame, "order-delivered");

    // Shopify's fulfillment got both scans as tracking events, and now reads delivered.
    await expect
      .poll(async () => (await shopifyFulfillments("#1001"))[0]?.events.map((e) => e.status), {
        timeout: EVENT_TIMEOUT_MS,
      })
      .toEqual(["IN_TRANSIT", "DELIVERED"]);
    const [fulfillment] = await shopifyFulfillments("#1001");
    expect(fulfillment?.displayStatus).toBe("DELIVERED");
    expect(fulfillment?.events.map((e) => e.happenedAt)).toEqual([
      departed.toISOString().replace(/\.\d{3}Z$/, "Z"),
      delivered.toISOString().replace(/\.\d{3}Z$/, "Z"),
    ]);

    // Labels shows the parcel delivered too.
    const labels = await reloadUntil(
      guarded,
      "/app/labels",
      labelRowSaying("#1001", /Delivered/),
      "#1001 delivered on Labels",
    );
    await checkScreen(guarded, labels.frame, "labels-delivered");

    // The service sent three events (purchase, two scans), each acknowledged; the purchase's after
    // its failed first attempt. The purchase was charged to the organization once.
    const deliveries = await serviceEventDeliveries();
    expect(deliveries.map((d) => [d.event_type, d.status])).toEqual([
      ["label.purchased", "delivered"],
      ["label.tracking_updated", "delivered"],
      ["label.tracking_updated", "delivered"],
    ]);
    expect(deliveries.map((d) => d.attempts.map((a) => a.status))).toEqual([[500, 200], [200], [200]]);
    expect((await shippingAccount()).charges.map((c) => c.label_id)).toEqual([draft.id]);

    guarded.assertClean();
    await guarded.close();
  });
});
