import type { useFetcher } from "react-router";

import type { LabelSummary, ValidatedAddressView } from "~/routes/app.orders.$orderId/order-label-page.server";
import type { ProductCustomsSave } from "~/shipments/save-customs-to-product.server";
import type { KnownPreflightProblem } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";

/** What the order page's action answers a label form's fetcher (rates, draft, validation, buy…). */
export type ActionAnswer = {
  intent?: string;
  error?: { code: string; message: string; reference?: string };
  problems?: KnownPreflightProblem[];
  rates?: Rate[];
  validation?: ValidatedAddressView;
  labelId?: string;
  existing?: boolean;
  label?: LabelSummary;
  writeBackError?: string | null;
  productSave?: ProductCustomsSave | null;
};

/** A fetcher of the order page's action, as the label form's cards are handed them. */
export type AnswerFetcher = ReturnType<typeof useFetcher<ActionAnswer>>;
