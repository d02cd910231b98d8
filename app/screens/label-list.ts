import { LABEL_STATUSES } from "~/labels/label-state";

// The Labels screen's filter values, in a pure module the page can import: every label state.
export const LABEL_LIST_FILTERS = ["all", ...LABEL_STATUSES] as const;
export type LabelListFilter = (typeof LABEL_LIST_FILTERS)[number];
