import type { OrderListTab } from "~/routes/app.orders._index/order-list.server";

// The Orders list's bulk selection, across its pages. Polaris's useIndexResourceState knows only
// the rows on screen: its "select this page" replaces whatever was selected before, so orders
// picked on page 1 were dropped once the merchant selected on page 2. Here the selection is kept
// by order GID, with the name the bulk run needs and the page it was picked on, and lives in the
// Orders route's component, which stays mounted while the list pages (React Router navigations to the
// same route). The header checkbox reflects only the rows on screen.

export type SelectedOrder = { orderGid: string; orderName: string; page: string };

export type OrderSelection = {
  orders: ReadonlyMap<string, SelectedOrder>;
  /** Polaris's "Select all N+ orders": every order the tab and search show, not only the picked ones. */
  allInView: { tab: OrderListTab; search: string } | null;
};

export const EMPTY_SELECTION: OrderSelection = { orders: new Map(), allInView: null };

/** The rows on screen, and which page they are (its first order: stable whichever arrow led to it). */
export type SelectionPage = {
  rows: ReadonlyArray<{ orderGid: string; name: string }>;
  tab: OrderListTab;
  search: string;
};

export const pageKeyOf = (page: SelectionPage) => page.rows[0]?.orderGid ?? "";

/** What IndexTable's onSelectionChange reports (Polaris's SelectionType values). */
export type SelectionChange = {
  type: "all" | "page" | "multi" | "single" | "range";
  selecting: boolean;
  selection?: string | readonly [number, number];
};

/** The selection after one change on the page on screen; other pages' orders stay selected. */
export function changeSelection(current: OrderSelection, change: SelectionChange, page: SelectionPage): OrderSelection {
  const orders = new Map(current.orders);
  const key = pageKeyOf(page);
  const set = (rows: SelectionPage["rows"], selecting: boolean) => {
    for (const row of rows) {
      if (selecting) orders.set(row.orderGid, { orderGid: row.orderGid, orderName: row.name, page: key });
      else orders.delete(row.orderGid);
    }
  };
  switch (change.type) {
    case "all":
      // "Select all N+ orders" (or, in the condensed view, leaving select mode: everything off).
      if (!change.selecting) return EMPTY_SELECTION;
      set(page.rows, true);
      return { orders, allInView: { tab: page.tab, search: page.search } };
    case "page":
      set(page.rows, change.selecting);
      break;
    case "single": {
      const row = page.rows.find((r) => r.orderGid === change.selection);
      if (row) set([row], change.selecting);
      break;
    }
    case "multi":
    case "range": {
      if (!Array.isArray(change.selection)) break;
      const [from, to] = change.selection as readonly [number, number];
      set(page.rows.slice(Math.min(from, to), Math.max(from, to) + 1), change.selecting);
      break;
    }
  }
  // Any change but "select all" leaves "every order in the view" for the orders picked.
  return { orders, allInView: null };
}

/** "Every order this view shows" holds only for the tab and search it was chosen on. */
export function isAllInView(selection: OrderSelection, page: Pick<SelectionPage, "tab" | "search">): boolean {
  return selection.allInView?.tab === page.tab && selection.allInView.search === page.search;
}

export type SelectionSummary = {
  total: number;
  onThisPage: number;
  /** The pages the selected orders were picked on, this one included when it has any. */
  pages: number;
  /** The header checkbox: all, some or none of the rows on screen. */
  pageState: "all" | "some" | "none";
};

export function summarizeSelection(selection: OrderSelection, page: SelectionPage): SelectionSummary {
  const onScreen = new Set(page.rows.map((row) => row.orderGid));
  const onThisPage = page.rows.filter((row) => selection.orders.has(row.orderGid)).length;
  const otherPages = new Set<string>();
  for (const order of selection.orders.values()) if (!onScreen.has(order.orderGid)) otherPages.add(order.page);
  otherPages.delete(pageKeyOf(page));
  return {
    total: selection.orders.size,
    onThisPage,
    pages: otherPages.size + (onThisPage > 0 ? 1 : 0),
    pageState: onThisPage === 0 ? "none" : onThisPage === page.rows.length ? "all" : "some",
  };
}

const orders = (n: number) => `${n} ${n === 1 ? "order" : "orders"}`;

/**
 * What is selected, in the merchant's words, when it is more than the rows on screen show; null
 * when the selection is all on this page (the table's own "N selected" says it).
 */
export function describeSelection(summary: SelectionSummary): string | null {
  if (summary.total === summary.onThisPage) return null;
  if (summary.pages <= 1) return `${orders(summary.total)} selected on another page, none on this one`;
  const here = summary.onThisPage === 0 ? "none on this page" : `${summary.onThisPage} on this page`;
  return `${orders(summary.total)} selected across ${summary.pages} pages (${here})`;
}

/** The orders to send to "Create labels", in the order they were picked. */
export const selectedOrders = (selection: OrderSelection) =>
  [...selection.orders.values()].map(({ orderGid, orderName }) => ({ orderGid, orderName }));
