import { LABEL_NEEDS, LABEL_STATUSES } from "~/labels/label-state";

// The Labels screen's filter values, in a pure module the page can import: every label state,
// the return labels (ADR 23) whatever their state, and the bought labels that need the merchant
// (label-needs.server.ts: what the home page's tiles count and link to).
export const LABEL_LIST_FILTERS = ["all", "return", ...LABEL_NEEDS, ...LABEL_STATUSES] as const;
export type LabelListFilter = (typeof LABEL_LIST_FILTERS)[number];

/** How the filter reads in the Show menu and the empty state, beside the states' own names. */
export const LABEL_FILTER_NAMES = {
  all: "All labels",
  return: "Return labels",
  tracking_exception: "Tracking exceptions",
  write_back_failed: "Tracking not in Shopify",
  bought_while_held: "Bought for a held order",
} as const;

/** The filters named here rather than by a label state. */
export type NamedLabelFilter = keyof typeof LABEL_FILTER_NAMES;
export const isNamedLabelFilter = (filter: LabelListFilter): filter is NamedLabelFilter => filter in LABEL_FILTER_NAMES;

/** The Labels list showing one filter, as the home page links to it. */
export const labelListUrl = (filter: LabelListFilter) =>
  filter === "all" ? "/app/labels" : `/app/labels?status=${filter}`;
