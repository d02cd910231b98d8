// @vitest-environment jsdom
import "../../../test/helpers/polaris-in-jsdom";

import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import { act, useState } from "react";
import { createRoot, type Root } from "react-dom/client";
import { createMemoryRouter, RouterProvider, useSearchParams } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import type { OrderRow } from "~/routes/app.orders._index/order-list.server";

import { OrderList } from "./order-list";
import { EMPTY_SELECTION, type OrderSelection } from "./order-selection";

// What jsdom lacks for the router, before its modules load (hence hoisted); Polaris's needs are
// in test/helpers/polaris-in-jsdom.ts.
vi.hoisted(() => {
  // The router builds a Request with jsdom's AbortSignal, which Node's Request refuses.
  const NodeRequest = globalThis.Request;
  globalThis.Request = class extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      // …and takes jsdom's URLSearchParams for text: a form's fields go as the string they are.
      const form = init?.body && Object.prototype.toString.call(init.body) === "[object URLSearchParams]";
      super(
        input,
        init
          ? {
              ...init,
              signal: null,
              ...(form
                ? { body: String(init.body), headers: { "Content-Type": "application/x-www-form-urlencoded" } }
                : {}),
            }
          : init,
      );
    }
  };
});

// The Orders list in a browser-like DOM: the merchant ticks orders on one page, moves to the next
// (a navigation to the same route, as in the app), ticks more, and creates labels.

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}

const row = (n: number): OrderRow => ({
  orderGid: `gid://shopify/Order/${n}`,
  orderId: String(n),
  name: `#${n}`,
  createdAt: "2026-01-05T10:00:00Z",
  customer: "Ana Souza",
  destination: "Brooklyn, NY, US",
  items: 1,
  weightGrams: 500,
  label: { progress: "none", count: 0 },
  problems: { blocking: 0, warnings: 0, messages: [], unchecked: null },
  shipped: false,
  nothingToShip: false,
  returnRequested: false,
  attention: [],
});
// Two pages of 20, as the app pages them.
const PAGES = [
  Array.from({ length: 20 }, (_, i) => row(1001 + i)),
  Array.from({ length: 20 }, (_, i) => row(1021 + i)),
];

/** The Orders route's part: it keeps the selection while the list pages. */
let initialSelection: OrderSelection = EMPTY_SELECTION;

function OrdersRoute() {
  const [params] = useSearchParams();
  const [selection, setSelection] = useState<OrderSelection>(initialSelection);
  const index = params.get("after") ? 1 : 0;
  return (
    <OrderList
      tab="all"
      search=""
      rows={PAGES[index] ?? []}
      pageInfo={{
        hasNextPage: index === 0,
        hasPreviousPage: index === 1,
        startCursor: index === 0 ? null : "page-2-start",
        endCursor: index === 0 ? "page-1-end" : null,
      }}
      selection={selection}
      onSelectionChange={setSelection}
    />
  );
}

let container: HTMLDivElement;
let root: Root;
let submitted: FormData[];

beforeAll(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
});

beforeEach(async () => {
  submitted = [];
  const router = createMemoryRouter(
    [
      { path: "/app/orders", element: <OrdersRoute /> },
      {
        path: "/app/bulk",
        action: async ({ request }) => {
          submitted.push(await request.formData());
          return null;
        },
        element: <p>run</p>,
      },
    ],
    {
      initialEntries: ["/app/orders"],
    },
  );
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  await act(async () =>
    root.render(
      <AppProvider i18n={en}>
        <RouterProvider router={router} />
      </AppProvider>,
    ),
  );
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
});

const rowOf = (name: string) => {
  const link = [...container.querySelectorAll("tr a")].find((a) => a.textContent === name);
  const tr = link?.closest("tr");
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
};
const tick = async (name: string) => {
  const box = rowOf(name).querySelector<HTMLInputElement>('input[type="checkbox"]');
  if (!box) throw new Error(`no checkbox in ${name}'s row`);
  await act(async () => box.click());
};
/** The header's "select this page" checkbox (the table's, not the sticky copy's). */
const headerCheckbox = () => {
  const box = container.querySelector<HTMLInputElement>('thead input[type="checkbox"]');
  if (!box) throw new Error("no header checkbox");
  return box;
};
const headerState = () => {
  const checked = headerCheckbox().getAttribute("aria-checked");
  return checked === "mixed" ? "some" : checked === "true" ? "all" : "none";
};
const button = (text: string | RegExp) => {
  const found = [...container.querySelectorAll("button")].find((b) =>
    typeof text === "string" ? b.textContent?.trim() === text : text.test(b.textContent?.trim() ?? ""),
  );
  if (!found) throw new Error(`no button ${String(text)}`);
  return found;
};
const click = async (element: HTMLElement) => act(async () => element.click());
const goToPage = async (label: "Next" | "Previous") => {
  const arrow = container.querySelector<HTMLButtonElement>(`button[aria-label="${label}"], #${label.toLowerCase()}URL`);
  if (!arrow) throw new Error(`no ${label} arrow`);
  await click(arrow);
};
const text = () => container.textContent ?? "";

describe("the Orders list's selection across pages", () => {
  it("keeps page 1's selected orders when the merchant selects on page 2, and Create labels sends all of them", async () => {
    await click(headerCheckbox()); // all 20 of page 1
    await goToPage("Next");
    for (const name of ["#1021", "#1022", "#1023"]) await tick(name);

    // The table's own action ("Create labels", named for the whole selection when it spans pages).
    await click(button(/^Create labels( for \d+ orders)?$/));

    expect(submitted).toHaveLength(1);
    const sent = JSON.parse(String(submitted[0]?.get("orders"))) as { orderGid: string; orderName: string }[];
    expect(submitted[0]?.get("scope")).toBe("selected");
    expect(sent.map((o) => o.orderName).sort()).toEqual(
      [...(PAGES[0] ?? []).map((r) => r.name), "#1021", "#1022", "#1023"].sort(),
    );
    expect(sent[0]).toEqual({ orderGid: "gid://shopify/Order/1001", orderName: "#1001" });
  });

  it("says a selection is over one run's limit instead of sending it", async () => {
    // 1,001 orders picked over many pages (none of them on the page on screen).
    const many = Array.from(
      { length: 1001 },
      (_, i) =>
        [
          `gid://shopify/Order/${5000 + i}`,
          { orderGid: `gid://shopify/Order/${5000 + i}`, orderName: `#${5000 + i}`, page: `p${Math.floor(i / 20)}` },
        ] as const,
    );
    initialSelection = { orders: new Map(many), allInView: null };
    try {
      await act(async () => root.unmount());
      root = createRoot(container);
      const router = createMemoryRouter(
        [
          { path: "/app/orders", element: <OrdersRoute /> },
          { path: "/app/bulk", action: async ({ request }) => void submitted.push(await request.formData()) },
        ],
        {
          initialEntries: ["/app/orders"],
        },
      );
      await act(async () =>
        root.render(
          <AppProvider i18n={en}>
            <RouterProvider router={router} />
          </AppProvider>,
        ),
      );
      await click(button("Create labels for 1001 orders"));
      expect(submitted).toEqual([]);
      expect(text()).toContain("You can create labels for up to 1,000 orders at a time, and 1,001 are selected.");
    } finally {
      initialSelection = EMPTY_SELECTION;
    }
  });

  it("creates labels from a page where nothing is selected, for the orders selected on others", async () => {
    await tick("#1003");
    await tick("#1004");
    await goToPage("Next");

    await click(button("Create labels for 2 orders"));

    const sent = JSON.parse(String(submitted[0]?.get("orders"))) as { orderName: string }[];
    expect(sent.map((o) => o.orderName)).toEqual(["#1003", "#1004"]);
  });

  it("says exactly what is selected across pages, and Clear selection empties it", async () => {
    await tick("#1001");
    await tick("#1002");
    await goToPage("Next");
    expect(text()).toContain("2 orders selected on another page, none on this one");
    expect(button("Create labels for 2 orders")).toBeTruthy();
    await tick("#1030");
    expect(text()).toContain("3 orders selected across 2 pages (1 on this page)");
    // The table's bar says "1 selected" for this page; its action says what it will act on.
    expect(button("Create labels for 3 orders")).toBeTruthy();

    await click(button("Clear selection"));
    expect(text()).not.toMatch(/selected across|on another page/);
    await goToPage("Previous");
    expect(rowOf("#1001").querySelector<HTMLInputElement>('input[type="checkbox"]')?.checked).toBe(false);
  });

  it("checks the header checkbox for all, some or none of this page's rows, whatever other pages hold", async () => {
    await click(headerCheckbox());
    expect(headerState()).toBe("all");
    await goToPage("Next");
    expect(headerState()).toBe("none");
    await tick("#1025");
    expect(headerState()).toBe("some");
    // Selecting this whole page adds it to page 1's orders rather than replacing them.
    await click(headerCheckbox());
    expect(headerState()).toBe("all");
    expect(text()).toContain("40 orders selected across 2 pages (20 on this page)");
    // Unselecting this page leaves page 1's.
    await click(headerCheckbox());
    expect(headerState()).toBe("none");
    expect(text()).toContain("20 orders selected on another page, none on this one");
    await goToPage("Previous");
    expect(headerState()).toBe("all");
  });
});
