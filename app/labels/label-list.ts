// The Labels screen's filter values, in a pure module the page can import (the label states
// themselves are declared in the server-only label repository; label-list.server.ts checks that
// this list names exactly those states).
export const LABEL_LIST_STATUSES = [
  "creating",
  "draft",
  "purchasing",
  "purchased",
  "fulfilled",
  "failed",
  "voided",
] as const;
export const LABEL_LIST_FILTERS = ["all", ...LABEL_LIST_STATUSES] as const;
export type LabelListFilter = (typeof LABEL_LIST_FILTERS)[number];
