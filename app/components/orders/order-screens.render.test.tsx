import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";

import type { OrderRow } from "~/routes/app.orders._index/order-list.server";
import type { OrderLabelPage } from "~/routes/app.orders.$orderId/order-label-page.server";

import { mergeProblems } from "../order-page/field-links";
import { OrderLabelWorkspace } from "../order-page/order-label-workspace";
import { ProblemSummary } from "../order-page/problem-list";
import { OrderList } from "./order-list";
import { EMPTY_SELECTION } from "./order-selection";

// Server-renders the screens' components with realistic data, as a document request would, to
// catch runtime errors (a missing provider, a bad prop) that typecheck cannot see.

function render(element: ReactNode, path = "/app/orders"): string {
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
      shippingMethod: "Standard Shipping",
      shippingPaid: { amount: "8.95", currency: "USD" },
    },
    setup: { apiKeyConfigured: true, mode: "live" },
    settings: {
      labelFormat: "pdf",
      labelSize: "4x6",
      notifyCustomer: true,
      addressValidationPolicy: "on_request",
      box: { length: 12, width: 10, height: 6, dimensionUnit: "in", maxWeight: 50, weightUnit: "lb", tareWeight: 0 },
      packingSlips: "after_each",
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
        customsProduct: {
          title: "Mug",
          productId: "gid://shopify/Product/7",
          inventoryItemId: "gid://shopify/InventoryItem/9",
          hsCode: null,
          countryOfOrigin: "US",
        },
        international: true,
        itemsValue: { amount: "48.00", currency: "USD" },
        label,
        shipToKey: null,
        storedValidation: null,
      },
    ],
    pastLabels: [],
    shopifyProblems: [],
  };
}

// Rendering outside React Router's server router, React warns that layout effects do nothing on the
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
        selection={EMPTY_SELECTION}
        onSelectionChange={() => {}}
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
            shipped: false,
            nothingToShip: false,
            returnRequested: false,
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
            shipped: false,
            nothingToShip: false,
            returnRequested: false,
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

  it("says how old the orders are when a bulk run's spending made the list reuse Shopify's answer", () => {
    const html = render(
      <OrderList
        tab="all"
        search=""
        shopifyAgeSeconds={40}
        selection={EMPTY_SELECTION}
        onSelectionChange={() => {}}
        pageInfo={{ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null }}
        rows={[
          {
            orderGid: "gid://shopify/Order/3",
            orderId: "3",
            name: "#1031",
            createdAt: "2026-11-21T10:00:00Z",
            customer: "Lee Chan",
            destination: "Austin, TX, US",
            items: 1,
            weightGrams: 300,
            label: { progress: "bought", count: 1 },
            problems: null,
            shipped: false,
            nothingToShip: false,
            returnRequested: false,
            attention: [],
          },
        ]}
      />,
    );
    expect(html).toContain("these orders are shown as they were 40 seconds ago");
    expect(html).toContain("Label statuses are up to date.");
  });

  /** The Orders list on `tab` with one row, #996, as the server sends it but for `row`. */
  const renderRow = (tab: "all" | "returns", row: Partial<OrderRow>) =>
    render(
      <OrderList
        tab={tab}
        search=""
        selection={EMPTY_SELECTION}
        onSelectionChange={() => {}}
        pageInfo={{ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null }}
        counts={{ drafts: 2, onHold: 1, problems: 3 }}
        rows={[
          {
            orderGid: "gid://shopify/Order/996",
            orderId: "996",
            name: "#996",
            createdAt: "2026-11-01T10:00:00Z",
            customer: "Ana Souza",
            destination: "Austin, TX, US",
            items: 0,
            weightGrams: 300,
            label: { progress: "none", count: 0 },
            problems: null,
            shipped: false,
            nothingToShip: false,
            returnRequested: false,
            attention: [],
            ...row,
          },
        ]}
      />,
    );

  it("shows a customer's return request on a shipped order's row, and never a blue hint for a blocker", () => {
    const html = renderRow("returns", { shipped: true, returnRequested: true });
    expect(html).toContain("#996");
    expect(html).toContain("Return requested");
    expect(html).toContain("Shipped");
    expect(html).not.toContain("No label");
    expect(html).not.toContain("Check customs");
  });

  it("says Fulfillment not required for an order Shopify needs no fulfillment for (cancelled or refunded)", () => {
    const html = renderRow("all", { nothingToShip: true });
    expect(html).toContain("#996");
    expect(html).toContain("Fulfillment not required");
    expect(html).not.toContain("No label");
    expect(html).not.toContain("Shipped");
  });

  it("renders the Orders empty state", () => {
    const html = render(
      <OrderList
        tab="all"
        search=""
        selection={EMPTY_SELECTION}
        onSelectionChange={() => {}}
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

  it("offers to save a fixed HS code to the product, checked, only when it differs from the product's", () => {
    const page = pageWith(null);
    const section = page.fulfillmentOrders[0];
    if (!section) throw new Error("no section");
    const withCode = (hs_code: string | undefined) => ({
      ...page,
      fulfillmentOrders: [
        {
          ...section,
          prefill: { ...section.prefill, request: { ...request, customs: { ...request.customs, hs_code } } },
        },
      ],
    });
    const html = render(<OrderLabelWorkspace page={withCode("6912.00")} />, "/app/orders/1");
    expect(html).toContain("Save to product: Mug");
    expect(html).toMatch(/<input[^>]*id="[^"]*save_to_product[^"]*"[^>]*checked/);
    expect(html).toContain("Writes the HS code to the product in Shopify");
    expect(render(<OrderLabelWorkspace page={withCode(undefined)} />, "/app/orders/1")).not.toContain(
      "Save to product",
    );
  });

  it("renders a bought label with its preview, tracking and write-back state", () => {
    const html = render(
      <OrderLabelWorkspace
        page={pageWith({
          id: "lbl_1",
          kind: "outbound",
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
          attentionReason: "order_cancelled",
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
          void: null,
          options: ["Insured for $250.00", "Adult signature"],
        })}
      />,
      "/app/orders/1",
    );
    expect(html).toContain("<iframe");
    expect(html).toContain("9400100000000000000000");
    expect(html).toContain("The charge differed from the quote");
    expect(html).toContain("Send tracking to Shopify");
    expect(html).toContain("Insured for $250.00");
    expect(html).toContain("Void label");
    expect(html).toContain("The order changed after this label was bought");
    expect(html).toContain("Bought outside the app");
    expect(html).toContain("Out for delivery");
    expect(html).toContain("Brooklyn, NY, US");
    expect(html).toContain("The order was cancelled after its label was bought.");
    // Charged for an order that will not ship: its void is one click, the button naming the refund.
    expect(html).toContain("Void label: refund $19.90 to your shipping balance");
  });
});

const draftLabel: NonNullable<OrderLabelPage["fulfillmentOrders"][number]["label"]> = {
  id: "lbl_draft",
  kind: "outbound",
  status: "draft",
  progress: "draft",
  carrier: "USPS",
  serviceName: "Priority Mail International",
  serviceCode: "svc_usps_priority_intl",
  quotedCents: 4210,
  chargedCents: null,
  currency: "USD",
  chargeMismatch: false,
  trackingNumbers: [],
  labelUrl: null,
  labelFormat: "pdf",
  labelSize: "4x6",
  shipDate: null,
  packageCount: 1,
  writeBack: { status: "none", attempts: 0, lastError: null },
  lastError: null,
  purchasedAt: null,
  attention: null,
  attentionReason: null,
  boughtOutside: false,
  parcels: [],
  void: null,
  options: [],
};

/** The page of one shipment whose request and products are patched. */
function pageWithRequest(patch: Record<string, unknown>, products = [{ title: "Mug", productType: "Gift" }]) {
  const page = pageWith(null);
  const section = page.fulfillmentOrders[0];
  if (!section) throw new Error("pageWith has one shipment");
  section.prefill = { ...section.prefill, request: { ...request, ...patch } as never, products, problems: [] };
  return page;
}

describe("the order page's label form", () => {
  it("shows a drafted label's details read-only yet legible, with Edit, and none of the editing buttons", () => {
    const html = render(<OrderLabelWorkspace page={pageWith(draftLabel)} />, "/app/orders/1");
    // Legible: read-only fields, not a disabled (greyed-out) fieldset.
    expect(html).not.toMatch(/<fieldset[^>]*disabled/);
    expect(html).not.toMatch(/<input[^>]*disabled/);
    expect(html).toMatch(
      /<input[^>]*id="label-field-to_address-city"[^>]*readOnly|<input[^>]*readOnly[^>]*id="label-field-to_address-city"/i,
    );
    expect(html).toContain('value="São Paulo"');
    expect(html).toContain(">Edit<");
    expect(html).not.toContain("Add box");
    expect(html).not.toContain("Validate address");
    expect(html).not.toContain("Get rates");
  });

  it("links each problem in the summary to its field", () => {
    const html = render(<OrderLabelWorkspace page={pageWith(null)} />, "/app/orders/1");
    expect(html).toContain('id="label-field-customs-tax_id"');
    const banner = /<ul[^>]*>[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";
    // Each line is a link-styled button named for what it does; the tax id line among them.
    expect(banner).toMatch(/<button[^>]*Polaris-Link[^>]*aria-label="[^"]*CPF[^"]*Go to the field\."/);
  });

  it("counts a field once in the summary, however many problems it has or answers repeat them", () => {
    const zip = { path: "to_address.zip", severity: "blocking" as const };
    const html = renderToString(
      <AppProvider i18n={en}>
        <ProblemSummary
          problems={[
            { ...zip, code: "ZIP_INVALID", message: "The recipient's ZIP code is not a US ZIP code." },
            { ...zip, code: "FIELD_REQUIRED", message: "Enter the recipient's postal code." },
            {
              path: "to_address.phone",
              severity: "warning",
              code: "PHONE_TOO_SHORT",
              message: "The phone is short.",
            },
          ]}
        />
      </AppProvider>,
    );
    expect(html).toContain("1 detail needs fixing before this label can be bought; 1 more to check");
    expect(html.match(/<li/g)).toHaveLength(2);
  });

  it("says a problem the form and the server both found once", () => {
    const tax = {
      path: "customs.tax_id",
      code: "TAX_ID_REQUIRED" as const,
      severity: "blocking" as const,
      message: "Brazil requires the recipient's CPF.",
    };
    const merged = mergeProblems([tax], [tax, { ...tax, code: "TAX_ID_INVALID" }], request as never);
    expect(merged).toEqual([tax]);
  });

  it("offers no suggestion the field already holds", () => {
    // "Gift" is vague for customs, and the products suggest nothing better than "Gift" itself.
    const page = pageWithRequest(
      { customs: { ...request.customs, description: "Gift", value: 30, tax_id: "111.444.777-35" } },
      [{ title: "Gift", productType: null }] as never,
    );
    const html = render(<OrderLabelWorkspace page={page} />, "/app/orders/1");
    expect(html).toContain("too vague for customs");
    expect(html).not.toContain("Use suggestion");
  });

  it("flags a US ZIP code that is not 5 or 9 digits next to the ZIP field", () => {
    const page = pageWithRequest({
      to_address: { name: "Lee Chan", street1: "1 Main St", city: "Austin", state: "TX", zip: "7870", country: "US" },
      customs: null,
    });
    const section = page.fulfillmentOrders[0];
    if (section) section.international = false;
    const html = render(<OrderLabelWorkspace page={page} />, "/app/orders/1");
    expect(html).toContain("is not a US ZIP code");
    expect(html).toMatch(
      /id="label-field-to_address-zip"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="label-field-to_address-zip"/,
    );
  });
});
