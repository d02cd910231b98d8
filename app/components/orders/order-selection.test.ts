import { describe, expect, it } from "vitest";

import {
  changeSelection,
  describeSelection,
  EMPTY_SELECTION,
  isAllInView,
  selectedOrders,
  type SelectionPage,
  summarizeSelection,
} from "./order-selection";

const page = (from: number, count: number, tab: SelectionPage["tab"] = "all"): SelectionPage => ({
  rows: Array.from({ length: count }, (_, i) => ({
    orderGid: `gid://shopify/Order/${from + i}`,
    name: `#${from + i}`,
  })),
  tab,
  search: "",
});
const PAGE_1 = page(1001, 20);
const PAGE_2 = page(1021, 20);

describe("the Orders list's selection", () => {
  it("adds a page's rows to the orders selected on other pages instead of replacing them", () => {
    let selection = changeSelection(EMPTY_SELECTION, { type: "page", selecting: true }, PAGE_1);
    selection = changeSelection(
      selection,
      { type: "single", selecting: true, selection: "gid://shopify/Order/1030" },
      PAGE_2,
    );
    selection = changeSelection(selection, { type: "multi", selecting: true, selection: [2, 5] }, PAGE_2);

    expect(selectedOrders(selection)).toHaveLength(25);
    expect(summarizeSelection(selection, PAGE_2)).toEqual({ total: 25, onThisPage: 5, pages: 2, pageState: "some" });
    expect(describeSelection(summarizeSelection(selection, PAGE_2))).toBe(
      "25 orders selected across 2 pages (5 on this page)",
    );
    expect(summarizeSelection(selection, PAGE_1).pageState).toBe("all");
  });

  it("unselects only this page's rows when the header checkbox is cleared", () => {
    let selection = changeSelection(EMPTY_SELECTION, { type: "page", selecting: true }, PAGE_1);
    selection = changeSelection(selection, { type: "page", selecting: true }, PAGE_2);
    selection = changeSelection(selection, { type: "page", selecting: false }, PAGE_2);

    expect(summarizeSelection(selection, PAGE_2)).toEqual({ total: 20, onThisPage: 0, pages: 1, pageState: "none" });
    expect(describeSelection(summarizeSelection(selection, PAGE_2))).toBe(
      "20 orders selected on another page, none on this one",
    );
  });

  it("says nothing beyond the table's own count when every selected order is on this page", () => {
    const selection = changeSelection(
      EMPTY_SELECTION,
      { type: "single", selecting: true, selection: "gid://shopify/Order/1001" },
      PAGE_1,
    );

    expect(describeSelection(summarizeSelection(selection, PAGE_1))).toBeNull();
  });

  it("keeps 'every order in this view' only for the tab and search it was chosen on, and until another change", () => {
    const all = changeSelection(EMPTY_SELECTION, { type: "all", selecting: true }, PAGE_1);

    expect(isAllInView(all, PAGE_1)).toBe(true);
    expect(isAllInView(all, page(1001, 20, "drafts"))).toBe(false);
    const narrowed = changeSelection(
      all,
      { type: "single", selecting: false, selection: "gid://shopify/Order/1001" },
      PAGE_1,
    );
    expect(isAllInView(narrowed, PAGE_1)).toBe(false);
    expect(selectedOrders(narrowed)).toHaveLength(19);
    expect(changeSelection(all, { type: "all", selecting: false }, PAGE_1)).toEqual(EMPTY_SELECTION);
  });
});
