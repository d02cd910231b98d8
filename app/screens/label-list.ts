import { LABEL_STATUSES } from "~/labels/label-state";

// The Labels screen's filter values, in a pure module the page can import: every label state,
// and the return labels (ADR 23) whatever their state.
export const LABEL_LIST_FILTERS = ["all", "return", ...LABEL_STATUSES] as const;
export type LabelListFilter = (typeof LABEL_LIST_FILTERS)[number];

/** How the filter reads in the Show menu and the empty state, beside the states' own names. */
export const LABEL_FILTER_NAMES = { all: "All labels", return: "Return labels" } as const;
