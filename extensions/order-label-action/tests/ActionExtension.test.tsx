import { getExtension } from "@shopify/ui-extensions-tester";
import { fireEvent, waitFor } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";

import type {
  ExtensionErrorBody,
  ExtensionLabel,
  ExtensionOrderState,
  ExtensionRate,
  ExtensionShipment,
} from "../../../app/extension-api/contract";
import { deferred, harnessExtension, json, query, screenText, type SentRequest } from "../../shared/testing";

const extension = getExtension("admin.order-details.action.render");

const ORDER_GID = "gid://shopify/Order/42";
const STATE_PATH = "GET /api/extensions/orders/42/label";
const RATES_PATH = "POST /api/extensions/orders/42/rates";
const BUY_PATH = "POST /api/extensions/orders/42/label";
const VOID_PATH = "POST /api/extensions/labels/lbl_1/void";
const APP_URL = "app:app/orders/42";

function shipment(overrides: Partial<ExtensionShipment> = {}): ExtensionShipment {
  return {
    fulfillmentOrderId: "gid://shopify/FulfillmentOrder/7",
    locationName: "Main warehouse",
    shipTo: { name: "Ada Lovelace", lines: ["12 Analytical Way", "Portland OR 97201", "United States"], country: "US" },
    boxes: ["30 × 20 × 10 cm · 1.20 kg"],
    customs: null,
    problems: [],
    warnings: [],
    label: null,
    ...overrides,
  };
}

function orderState(overrides: Partial<ExtensionOrderState> = {}): ExtensionOrderState {
  return {
    order: { id: ORDER_GID, legacyId: "42", name: "#1042" },
    appUrl: APP_URL,
    shipment: shipment(),
    nothingToShip: null,
    setupProblem: null,
    ...overrides,
  };
}

const express: ExtensionRate = {
  serviceCode: "fedex_2day",
  carrier: "FedEx",
  serviceName: "2Day",
  price: { cents: 1510, currency: "USD" },
  deliveryDays: 2,
};
const ground: ExtensionRate = {
  serviceCode: "ups_ground",
  carrier: "UPS",
  serviceName: "Ground",
  price: { cents: 840, currency: "USD" },
  deliveryDays: 5,
};

function boughtLabel(overrides: Partial<ExtensionLabel> = {}): ExtensionLabel {
  return {
    id: "lbl_1",
    state: "bought",
    carrier: "UPS",
    serviceName: "Ground",
    serviceCode: "ups_ground",
    price: { cents: 840, currency: "USD" },
    trackingNumbers: [{ number: "1Z999AA10123456784", url: "https://track.example/1Z999AA10123456784" }],
    format: "pdf",
    printable: true,
    writeBackError: null,
    canVoid: false,
    refund: null,
    ...overrides,
  };
}

function errorBody(
  code: ExtensionErrorBody["error"]["code"],
  message: string,
  extra: Partial<ExtensionErrorBody> = {},
) {
  return { error: { code, message }, ...extra } satisfies ExtensionErrorBody;
}

const primaryButton = () => query('s-button[slot="primary-action"]');
const buyButton = () => document.body.querySelector('s-button[slot="primary-action"]');
const isDisabled = (element: Element) => element.hasAttribute("disabled") || element.hasAttribute("loading");
const bodiesSentTo = (requests: SentRequest[], method: string, path: string) =>
  requests.filter((r) => r.method === method && r.path === path).map((r) => r.body);

const { serve } = harnessExtension(extension, [ORDER_GID]);

const findVoidButton = () =>
  waitFor(() => {
    const button = [...document.body.querySelectorAll("s-button")].find((b) => b.textContent === "Void label");
    if (!button) throw new Error("no Void label button");
    return button;
  });

async function renderReady() {
  await extension.render();
  await waitFor(() => expect(primaryButton().textContent).toBe("Buy label for $8.40"));
}

describe("order label action", () => {
  it("shows a ready order's summary and rates, preselects the cheapest, and buys exactly the amount on the button", async () => {
    const close = vi.fn();
    extension.shopify.close = close;
    const { requests } = serve({
      [STATE_PATH]: () => json(orderState()),
      [RATES_PATH]: () => json({ rates: [express, ground] }),
      [BUY_PATH]: () => json({ label: boughtLabel() }),
    });

    await renderReady();

    expect(screenText()).toContain("Ada Lovelace");
    expect(screenText()).toContain("12 Analytical Way");
    expect(screenText()).toContain("30 × 20 × 10 cm · 1.20 kg");
    const choices = [...document.body.querySelectorAll("s-choice")];
    expect(choices.map((c) => c.textContent)).toEqual([
      "FedEx · 2Day · $15.10 · 2 days",
      "UPS · Ground · $8.40 · 5 days",
    ]);
    expect(choices.map((c) => c.hasAttribute("selected"))).toEqual([false, true]);
    expect(bodiesSentTo(requests, "POST", "/api/extensions/orders/42/rates")).toEqual([
      { fulfillmentOrderId: "gid://shopify/FulfillmentOrder/7" },
    ]);

    fireEvent.click(primaryButton());

    await waitFor(() => expect(screenText()).toContain("Label bought"));
    expect(bodiesSentTo(requests, "POST", "/api/extensions/orders/42/label")).toEqual([
      {
        fulfillmentOrderId: "gid://shopify/FulfillmentOrder/7",
        serviceCode: "ups_ground",
        expectedCents: 840,
        currency: "USD",
      },
    ]);
    expect(query("s-link[href='https://track.example/1Z999AA10123456784']").textContent).toBe("1Z999AA10123456784");
    expect(screenText()).toContain("More actions → Print → Shipping label");
    expect(buyButton()).toBeNull();

    const done = query('s-button[slot="secondary-actions"]');
    expect(done.textContent).toBe("Done");
    fireEvent.click(done);
    expect(close).toHaveBeenCalledOnce();
  });

  it("names the chosen service's price on the button and buys that service", async () => {
    const { requests } = serve({
      [STATE_PATH]: () => json(orderState()),
      [RATES_PATH]: () => json({ rates: [express, ground] }),
      [BUY_PATH]: () => json({ label: boughtLabel({ carrier: "FedEx", serviceName: "2Day" }) }),
    });
    await renderReady();

    const list = query("s-choice-list") as Element & { values: string[] };
    list.values = ["fedex_2day"];
    fireEvent.change(list);

    await waitFor(() => expect(primaryButton().textContent).toBe("Buy label for $15.10"));
    fireEvent.click(primaryButton());
    await waitFor(() => expect(screenText()).toContain("Label bought"));
    expect(bodiesSentTo(requests, "POST", "/api/extensions/orders/42/label")).toEqual([
      {
        fulfillmentOrderId: "gid://shopify/FulfillmentOrder/7",
        serviceCode: "fedex_2day",
        expectedCents: 1510,
        currency: "USD",
      },
    ]);
  });

  it("sends one purchase however often the button is clicked while it's buying", async () => {
    const answer = deferred<Response>();
    const { requests } = serve({
      [STATE_PATH]: () => json(orderState()),
      [RATES_PATH]: () => json({ rates: [ground] }),
      [BUY_PATH]: () => answer.promise,
    });
    await renderReady();

    fireEvent.click(primaryButton());
    fireEvent.click(primaryButton());
    await waitFor(() => expect(isDisabled(primaryButton())).toBe(true));
    fireEvent.click(primaryButton());

    answer.resolve(json({ label: boughtLabel() }));
    await waitFor(() => expect(screenText()).toContain("Label bought"));
    expect(bodiesSentTo(requests, "POST", "/api/extensions/orders/42/label")).toHaveLength(1);
  });

  it("lists blocking problems with their fixes and a link to the app, and offers no rates or purchase", async () => {
    const { requests } = serve({
      [STATE_PATH]: () =>
        json(
          orderState({
            shipment: shipment({
              problems: [
                {
                  path: "customs.tax_id",
                  message: "The recipient's tax ID is missing.",
                  fix: "Add it on the app's order page.",
                },
                { path: "ship_to.phone", message: "The carrier needs a phone number.", fix: null },
              ],
            }),
          }),
        ),
    });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("Fix these before buying a label"));
    expect(screenText()).toContain("The recipient's tax ID is missing. Add it on the app's order page.");
    expect(screenText()).toContain("The carrier needs a phone number.");
    expect(query(`s-link[href="${APP_URL}"]`).textContent).toBe("Fix on the app's order page");
    expect(buyButton()).toBeNull();
    expect(document.body.querySelector("s-choice-list")).toBeNull();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([STATE_PATH]);
  });

  it("shows the label an order already has, with its tracking, instead of offering another", async () => {
    const { requests } = serve({
      [STATE_PATH]: () =>
        json(
          orderState({
            shipment: shipment({
              label: boughtLabel({
                trackingNumbers: [
                  { number: "1Z999AA10123456784", url: "https://track.example/1Z999AA10123456784" },
                  { number: "1Z999AA10123456795", url: null },
                ],
                writeBackError: "Shopify didn't accept the tracking number.",
              }),
            }),
          }),
        ),
    });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("UPS · Ground · $8.40"));
    expect(query("s-link[href='https://track.example/1Z999AA10123456784']").textContent).toBe("1Z999AA10123456784");
    expect(screenText()).toContain("Tracking numbers");
    expect(screenText()).toContain("1Z999AA10123456795");
    expect(screenText()).toContain("Tracking isn't in Shopify yet");
    expect(screenText()).toContain("Shopify didn't accept the tracking number.");
    expect(screenText()).toContain("More actions → Print → Shipping label");
    expect(screenText()).not.toContain("Label bought");
    expect(buyButton()).toBeNull();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([STATE_PATH]);
  });

  it("says the new price when it changed, shows nothing as bought, and confirms the new amount next time", async () => {
    const dearer: ExtensionRate = { ...ground, price: { cents: 910, currency: "USD" } };
    let buys = 0;
    const { requests } = serve({
      [STATE_PATH]: () => json(orderState()),
      [RATES_PATH]: () => json({ rates: [express, ground] }),
      [BUY_PATH]: () =>
        ++buys === 1
          ? json(errorBody("PRICE_CHANGED", "The price of UPS Ground changed.", { rate: dearer }), 409)
          : json({ label: boughtLabel({ price: dearer.price }) }),
    });
    await renderReady();

    fireEvent.click(primaryButton());

    await waitFor(() => expect(screenText()).toContain("The price changed to $9.10. Nothing was bought."));
    expect(screenText()).not.toContain("Label bought");
    expect(screenText()).not.toContain("1Z999AA10123456784");
    await waitFor(() => expect(primaryButton().textContent).toBe("Buy label for $9.10"));
    expect(isDisabled(primaryButton())).toBe(false);
    expect(query('s-choice[value="ups_ground"]').textContent).toBe("UPS · Ground · $9.10 · 5 days");

    fireEvent.click(primaryButton());
    await waitFor(() => expect(screenText()).toContain("Label bought"));
    expect(bodiesSentTo(requests, "POST", "/api/extensions/orders/42/label")).toEqual([
      {
        fulfillmentOrderId: "gid://shopify/FulfillmentOrder/7",
        serviceCode: "ups_ground",
        expectedCents: 840,
        currency: "USD",
      },
      {
        fulfillmentOrderId: "gid://shopify/FulfillmentOrder/7",
        serviceCode: "ups_ground",
        expectedCents: 910,
        currency: "USD",
      },
    ]);
  });

  it("shows the label the shipment already has when the purchase finds one", async () => {
    serve({
      [STATE_PATH]: () => json(orderState()),
      [RATES_PATH]: () => json({ rates: [ground] }),
      [BUY_PATH]: () =>
        json(
          errorBody("ALREADY_LABELLED", "This shipment already has a label.", {
            label: boughtLabel({ trackingNumbers: [{ number: "9400111", url: null }] }),
          }),
          409,
        ),
    });
    await renderReady();

    fireEvent.click(primaryButton());

    await waitFor(() => expect(screenText()).toContain("This shipment already has a label"));
    expect(screenText()).toContain("Nothing new was bought.");
    expect(screenText()).toContain("9400111");
    expect(buyButton()).toBeNull();
  });

  it("shows the app's message when a purchase is refused, and lets the merchant try again", async () => {
    serve({
      [STATE_PATH]: () => json(orderState()),
      [RATES_PATH]: () => json({ rates: [ground] }),
      [BUY_PATH]: () => json(errorBody("SERVICE_UNAVAILABLE", "The shipping service is down. Try again soon."), 503),
    });
    await renderReady();

    fireEvent.click(primaryButton());

    await waitFor(() =>
      expect(query('s-banner[tone="critical"]').textContent).toContain("The shipping service is down."),
    );
    expect(screenText()).not.toContain("Label bought");
    expect(isDisabled(primaryButton())).toBe(false);
    expect(primaryButton().textContent).toBe("Buy label for $8.40");
  });

  it("never says 'not bought' when the purchase may have gone through, and shows what the app knows now", async () => {
    let loads = 0;
    const { requests } = serve({
      [STATE_PATH]: () =>
        json(loads++ === 0 ? orderState() : orderState({ shipment: shipment({ label: boughtLabel() }) })),
      [RATES_PATH]: () => json({ rates: [ground] }),
      [BUY_PATH]: () => json(errorBody("IN_PROGRESS", "The label was bought, but we could not save it yet."), 409),
    });
    await renderReady();

    fireEvent.click(primaryButton());

    await waitFor(() => expect(screenText()).toContain("We couldn't confirm the purchase"));
    expect(screenText()).not.toContain("wasn't bought");
    // The order is read again: the label the purchase made is what the window shows.
    await waitFor(() => expect(screenText()).toContain("1Z999AA10123456784"));
    expect(requests.filter((r) => r.method === "GET" && r.path === "/api/extensions/orders/42/label")).toHaveLength(2);
    expect(buyButton()).toBeNull();
  });

  it("turns the app's blocking problems into the problem list when a purchase is blocked", async () => {
    serve({
      [STATE_PATH]: () => json(orderState()),
      [RATES_PATH]: () => json({ rates: [ground] }),
      [BUY_PATH]: () =>
        json(
          errorBody("PREFLIGHT_BLOCKED", "This shipment needs fixing first.", {
            problems: [{ path: "boxes.0.weight", message: "The box has no weight.", fix: "Weigh it in the app." }],
          }),
          422,
        ),
    });
    await renderReady();

    fireEvent.click(primaryButton());

    await waitFor(() => expect(screenText()).toContain("The box has no weight. Weigh it in the app."));
    expect(query('s-banner[tone="critical"]').textContent).toContain("This shipment needs fixing first.");
    expect(query(`s-link[href="${APP_URL}"]`).textContent).toBe("Fix on the app's order page");
    expect(buyButton()).toBeNull();
  });

  it("shows an international shipment's customs declaration", async () => {
    serve({
      [STATE_PATH]: () =>
        json(
          orderState({
            shipment: shipment({
              shipTo: { name: "Grace Hopper", lines: ["Rua Augusta 1", "1100-048 Lisboa", "Portugal"], country: "PT" },
              customs: {
                contentsType: "returned_goods",
                description: "Cotton T-shirt",
                quantity: 2,
                value: { cents: 4000, currency: "USD" },
                hsCode: "610910",
                origin: "US",
              },
              warnings: ["Portugal may charge the recipient import VAT."],
            }),
          }),
        ),
      [RATES_PATH]: () => json({ rates: [ground] }),
    });
    await renderReady();

    const customs = query('s-section[heading="Customs"]').textContent ?? "";
    expect(customs).toContain("Contents: returned goods");
    expect(customs).toContain("2 × Cotton T-shirt · value $40.00 · HS 610910 · made in US");
    expect(screenText()).toContain("Portugal may charge the recipient import VAT.");
  });

  it("doesn't show customs for a domestic shipment", async () => {
    serve({ [STATE_PATH]: () => json(orderState()), [RATES_PATH]: () => json({ rates: [ground] }) });
    await renderReady();
    expect(document.body.querySelector('s-section[heading="Customs"]')).toBeNull();
  });

  it("offers to buy a draft label as drafted, at its quoted price, without quoting again", async () => {
    const { requests } = serve({
      [STATE_PATH]: () =>
        json(
          orderState({
            shipment: shipment({ label: boughtLabel({ state: "draft", trackingNumbers: [], price: ground.price }) }),
          }),
        ),
      [BUY_PATH]: () => json({ label: boughtLabel() }),
    });
    await renderReady();

    expect(screenText()).toContain("Draft, not bought yet.");
    expect(document.body.querySelector("s-choice-list")).toBeNull();
    fireEvent.click(primaryButton());
    await waitFor(() => expect(screenText()).toContain("Label bought"));
    expect(bodiesSentTo(requests, "POST", "/api/extensions/orders/42/label")).toEqual([
      {
        fulfillmentOrderId: "gid://shopify/FulfillmentOrder/7",
        serviceCode: "ups_ground",
        expectedCents: 840,
        currency: "USD",
      },
    ]);
    expect(requests.filter((r) => r.path.endsWith("/rates"))).toEqual([]);
  });

  it("confirms a draft's new price when the app says its quote changed", async () => {
    let attempt = 0;
    const { requests } = serve({
      [STATE_PATH]: () =>
        json(
          orderState({
            shipment: shipment({ label: boughtLabel({ state: "draft", trackingNumbers: [], price: ground.price }) }),
          }),
        ),
      [BUY_PATH]: () =>
        attempt++ === 0
          ? json(
              errorBody("PRICE_CHANGED", "This shipment's draft is Ground for $9.10. Nothing was bought.", {
                rate: { ...ground, price: { cents: 910, currency: "USD" }, deliveryDays: null },
              }),
              409,
            )
          : json({ label: boughtLabel({ price: { cents: 910, currency: "USD" } }) }),
    });
    await renderReady();
    fireEvent.click(primaryButton());
    await waitFor(() => expect(primaryButton().textContent).toBe("Buy label for $9.10"));
    expect(screenText()).not.toContain("Label bought");
    fireEvent.click(primaryButton());
    await waitFor(() => expect(screenText()).toContain("Label bought"));
    expect(
      bodiesSentTo(requests, "POST", "/api/extensions/orders/42/label").map(
        (b) => (b as { expectedCents: number }).expectedCents,
      ),
    ).toEqual([840, 910]);
  });

  it("sends a draft it cannot buy as drafted to the app's order page", async () => {
    serve({
      [STATE_PATH]: () =>
        json(
          orderState({
            shipment: shipment({ label: boughtLabel({ state: "draft", serviceCode: null, trackingNumbers: [] }) }),
          }),
        ),
    });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("This draft can't be bought from here."));
    expect(query(`s-link[href="${APP_URL}"]`).textContent).toBe("Buy it on the app's order page");
    expect(buyButton()).toBeNull();
  });

  it("says what to set up, with a link to the app's Settings, and asks for no rates", async () => {
    const { requests } = serve({
      [STATE_PATH]: () => json(orderState({ setupProblem: "Add your shipping API key in Settings to buy labels." })),
    });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("Add your shipping API key in Settings to buy labels."));
    expect(query('s-link[href="app:app/settings"]').textContent).toBe("Open the app's Settings");
    expect(buyButton()).toBeNull();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([STATE_PATH]);
  });

  it("says why there is nothing to ship", async () => {
    serve({
      [STATE_PATH]: () =>
        json(orderState({ shipment: null, nothingToShip: "Everything in this order is already fulfilled." })),
    });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("Everything in this order is already fulfilled."));
    expect(screenText()).toContain("Nothing to ship");
    expect(buyButton()).toBeNull();
  });

  it("says plainly when the app can't be reached", async () => {
    extension.fetch = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await extension.render();

    await waitFor(() =>
      expect(query('s-banner[tone="critical"]').textContent).toContain(
        "Couldn't reach the app. Check your connection and try again.",
      ),
    );
    expect(primaryButton().textContent).toBe("Try again");
  });

  it("voids a bought label after a confirmation naming the refund, once, then offers a replacement", async () => {
    let voided = false;
    const { requests } = serve({
      [STATE_PATH]: () =>
        json(orderState({ shipment: shipment({ label: voided ? null : boughtLabel({ canVoid: true }) }) })),
      [RATES_PATH]: () => json({ rates: [ground] }),
      [VOID_PATH]: () => {
        voided = true;
        return json({
          label: boughtLabel({
            state: "voided",
            refund: { status: "pending", amount: { cents: 840, currency: "USD" } },
          }),
        });
      },
    });
    await extension.render();
    fireEvent.click(await findVoidButton());

    // The confirmation names the refund; nothing is sent until it is confirmed.
    await waitFor(() => expect(primaryButton().textContent).toBe("Void label and refund $8.40"));
    expect(screenText()).toContain("Don't ship with this label");
    expect(requests.filter((r) => r.path.endsWith("/void"))).toEqual([]);
    fireEvent.click(primaryButton());
    fireEvent.click(primaryButton());

    await waitFor(() => expect(screenText()).toContain("Refund pending: $8.40"));
    expect(requests.filter((r) => r.method === "POST" && r.path === "/api/extensions/labels/lbl_1/void")).toHaveLength(
      1,
    );
    // The shipment is open again: rates for a replacement.
    await waitFor(() => expect(primaryButton().textContent).toBe("Buy label for $8.40"));
  });

  it("offers no void for a label that can't be voided", async () => {
    serve({
      [STATE_PATH]: () => json(orderState({ shipment: shipment({ label: boughtLabel({ canVoid: false }) }) })),
    });
    await extension.render();
    await waitFor(() => expect(screenText()).toContain("1Z999AA10123456784"));
    expect([...document.body.querySelectorAll("s-button")].map((b) => b.textContent)).not.toContain("Void label");
  });

  it("says why the app refused a void", async () => {
    serve({
      [STATE_PATH]: () => json(orderState({ shipment: shipment({ label: boughtLabel({ canVoid: true }) }) })),
      [VOID_PATH]: () =>
        json(errorBody("NOT_VOIDABLE", "The carrier has already scanned this parcel, so it can't be voided."), 409),
    });
    await extension.render();
    fireEvent.click(await findVoidButton());
    await waitFor(() => expect(primaryButton().textContent).toBe("Void label and refund $8.40"));
    fireEvent.click(primaryButton());
    await waitFor(() => expect(screenText()).toContain("The label wasn't voided"));
    expect(screenText()).toContain("already scanned this parcel");
  });
});
