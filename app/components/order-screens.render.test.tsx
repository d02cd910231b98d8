import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";

import type { OrderLabelPage } from "~/screens/order-label-page.server";

import { OrderLabelWorkspace } from "./label-form/order-label-workspace";
import { OrderList } from "./order-list";

// Server-renders the screens' components with realistic data, as a document request would, to
// catch runtime errors (a missing provider, a bad prop) that typecheck cannot see.

function render(element: ReactNode, path = "/app"): string {
  const router = createMemoryRouter([{ path: "*", element: <AppProvider i18n={en}>{element}</AppProvider> }], {
    initialEntries: [path],
  });
  return renderToString(<RouterProvider router={router} />);
}

const request = {
  from_address: { name: "Shop", street1: "250 Kent Ave", city: "Brooklyn", state: "NY", zip: "11249", country: "US" },
  to_address: {
    name: "Ana Souza",
    street1: "Rua A 1",
    city: "São Paulo",
    state: "SP",
    zip: "01000-000",
    country: "BR",
  },
  parcel: { weight: 20, length: 12, width: 10, height: 6, weight_unit: "oz", dimension_unit: "in" },
  customs: { description: "Gift", contents_type: "merchandise", quantity: 1 },
  label_format: "pdf",
  label_size: "4x6",
};

function pageWith(label: OrderLabelPage["fulfillmentOrders"][number]["label"]): OrderLabelPage {
  return {
    order: {
      id: "gid://shopify/Order/1" as never,
      legacyId: "1",
      name: "#1007",
      email: null,
      displayFulfillmentStatus: "UNFULFILLED",
    },
    setup: { apiKeyConfigured: true, mode: "live" },
    settings: {
      labelFormat: "pdf",
      labelSize: "4x6",
      notifyCustomer: true,
      addressValidationPolicy: "on_request",
      box: { length: 12, width: 10, height: 6, dimensionUnit: "in", maxWeight: 50, weightUnit: "lb", tareWeight: 0 },
    },
    boxPresets: [],
    shipFromOptions: [{ locationId: "gid://shopify/Location/1", name: "Brooklyn", address: request.from_address }],
    validationPriceCents: 5,
    fulfillmentOrders: [
      {
        id: "gid://shopify/FulfillmentOrder/11" as never,
        status: "OPEN",
        deliveryMethod: "Standard",
        locationName: "Brooklyn",
        locationId: "gid://shopify/Location/1",
        canCreateFulfillment: true,
        lines: [
          {
            id: "gid://shopify/FulfillmentOrderLineItem/5",
            title: "Mug",
            variantTitle: null,
            sku: "MUG",
            remaining: 2,
            total: 2,
          },
        ],
        prefill: {
          request,
          lineItems: [{ id: "gid://shopify/FulfillmentOrderLineItem/5", quantity: 2 }],
          products: [{ title: "Mug", productType: "Gift" }],
          problems: [
            {
              path: "customs.tax_id",
              code: "TAX_ID_REQUIRED",
              severity: "blocking",
              message: "Brazil requires the recipient's CPF.",
            },
          ],
        },
        international: true,
        label,
        shipToKey: null,
        storedValidation: null,
      },
    ],
    pastLabels: [],
    shopifyProblems: [],
  };
}

// Rendering outside Remix's server router, React warns that layout effects do nothing on the
// server (the memory router's and Polaris's own); any other console error still fails the test.
beforeEach(() => {
  const original = console.error;
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (String(args[0]).includes("useLayoutEffect does nothing on the server")) return;
    original(...args);
  });
});

describe("order screens render on the server", () => {
  it("renders the Orders table with a row, its label status and its problems badge", () => {
    const html = render(
      <OrderList
        tab="all"
        search=""
        filteredOnPage={false}
        pageInfo={{ hasNextPage: true, hasPreviousPage: false, startCursor: "a", endCursor: "b" }}
        rows={[
          {
            orderGid: "gid://shopify/Order/1",
            orderId: "1",
            name: "#1007",
            createdAt: "2026-11-20T10:00:00Z",
            customer: "Ana Souza",
            destination: "São Paulo, SP, BR",
            items: 2,
            weightGrams: 900,
            label: { progress: "none", count: 0 },
            problems: {
              blocking: 1,
              warnings: 0,
              messages: ["Brazil requires the recipient's CPF."],
              unchecked: null,
            },
            attention: [],
          },
          {
            orderGid: "gid://shopify/Order/2",
            orderId: "2",
            name: "#1023",
            createdAt: "2026-11-21T10:00:00Z",
            customer: "Lee Chan",
            destination: "Austin, TX, US",
            items: 1,
            weightGrams: 300,
            label: { progress: "bought", count: 1 },
            problems: null,
            attention: [
              "The order was cancelled after its label was bought. Void the label with the carrier, or ship it anyway.",
            ],
          },
        ]}
      />,
    );
    expect(html).toContain("#1007");
    expect(html).toContain("No label");
    // What the merchant must act on is spelled out in the row, not hidden in a tooltip.
    expect(html).toContain("Needs attention");
    expect(html).toContain("The order was cancelled after its label was bought.");
    expect(html).toContain("1 to fix");
  });

  it("renders the Orders empty state", () => {
    const html = render(
      <OrderList
        tab="all"
        search=""
        filteredOnPage={false}
        pageInfo={{ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null }}
        rows={[]}
      />,
    );
    expect(html).toContain("Nothing to ship");
  });

  it("renders the label form with the problem next to its field and in the summary, and the cost of validation", () => {
    const html = render(<OrderLabelWorkspace page={pageWith(null)} />, "/app/orders/1");
    expect(html).toMatch(/need fixing|needs fixing/);
    expect(html).toContain("Recipient tax id");
    expect(html).toMatch(/CPF/);
    expect(html).toContain("Get rates");
    expect(html).toContain("Customs");
  });

  it("renders a bought label with its preview, tracking and write-back state", () => {
    const html = render(
      <OrderLabelWorkspace
        page={pageWith({
          id: "lbl_1",
          status: "purchased",
          progress: "write_back_failed",
          carrier: "USPS",
          serviceName: "Priority Mail",
          serviceCode: "usps_priority",
          quotedCents: 1840,
          chargedCents: 1990,
          currency: "USD",
          chargeMismatch: true,
          trackingNumbers: [{ number: "9400100000000000000000", url: "https://track.example/9400100000000000000000" }],
          labelUrl: "https://files.example/label.pdf",
          labelFormat: "pdf",
          labelSize: "4x6",
          shipDate: null,
          packageCount: 1,
          writeBack: { status: "failed", attempts: 1, lastError: "USER_ERROR" },
          lastError: null,
          purchasedAt: "2026-11-20T10:00:00Z",
          attention:
            "The order was cancelled after its label was bought. Void the label with the carrier, or ship it anyway.",
          boughtOutside: true,
          parcels: [
            {
              trackingNumber: "9400100000000000000000",
              status: "out_for_delivery",
              statusDetail: null,
              occurredAt: "2026-11-22T08:00:00Z",
              estimatedDeliveryAt: null,
              place: "Brooklyn, NY, US",
            },
          ],
        })}
      />,
      "/app/orders/1",
    );
    expect(html).toContain("<iframe");
    expect(html).toContain("9400100000000000000000");
    expect(html).toContain("The charge differed from the quote");
    expect(html).toContain("Retry sending tracking");
    expect(html).toContain("The order changed after this label was bought");
    expect(html).toContain("Bought outside the app");
    expect(html).toContain("Out for delivery");
    expect(html).toContain("Brooklyn, NY, US");
    expect(html).toContain("The order was cancelled after its label was bought.");
  });
});
