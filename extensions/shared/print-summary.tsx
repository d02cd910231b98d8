import type { ExtensionPrintSummary } from "../../app/http/extension-contract";
import { type ApiFailure, requestJson } from "./api";
import { ErrorBanner } from "./ui";

export type PrintSummaryState =
  | { status: "loading" }
  | { status: "failed"; failure: ApiFailure }
  | { status: "loaded"; summary: ExtensionPrintSummary };

/**
 * The print summary, its PDF path carrying the session token as `id_token`: Shopify loads the
 * print action's `src` itself, and whether it adds a bearer token there is not documented (ADR
 * 12), so the app's print route also reads the token from the query. `idToken` is the
 * extension's `shopify.auth.idToken`.
 */
export async function loadPrintSummary(
  orderIds: string[],
  idToken: () => Promise<string | null>,
): Promise<PrintSummaryState> {
  const query = orderIds.map((id) => encodeURIComponent(id)).join(",");
  const result = await requestJson<ExtensionPrintSummary>(`/api/extensions/print/summary?orderIds=${query}`);
  if (!result.ok) return { status: "failed", failure: result.failure };
  const summary = result.data;
  const token = summary.pdfPath ? await idToken().catch(() => null) : null;
  if (!summary.pdfPath || !token) return { status: "loaded", summary };
  const separator = summary.pdfPath.includes("?") ? "&" : "?";
  return {
    status: "loaded",
    summary: { ...summary, pdfPath: `${summary.pdfPath}${separator}id_token=${encodeURIComponent(token)}` },
  };
}

/** Why the Print button is off, in one sentence. */
function nothingPrintableReason(summary: ExtensionPrintSummary, single: boolean): string {
  if (summary.zplOnly.length > 0) {
    return single
      ? "Nothing to print here: this order's label is a ZPL file for thermal printers, not a PDF."
      : "Nothing to print here: the selected orders' labels are ZPL files for thermal printers, not PDFs.";
  }
  return single
    ? "Nothing to print: this order has no bought shipping label yet. Create one with More actions → Create label."
    : "Nothing to print: none of the selected orders has a bought shipping label yet.";
}

/**
 * The body of a print action: what goes in the PDF, which labels are ZPL and where to get them,
 * and which orders have no label. `pdfPath` is the action's `src`; without it Print stays off.
 */
export function PrintSummaryAction({ state, single }: { state: PrintSummaryState; single: boolean }) {
  if (state.status === "loading") {
    return (
      <s-admin-print-action>
        <s-stack direction="inline" gap="small-200">
          <s-spinner accessibilityLabel="Loading" />
          <s-text>Checking which shipping labels can print…</s-text>
        </s-stack>
      </s-admin-print-action>
    );
  }
  if (state.status === "failed") {
    return (
      <s-admin-print-action>
        <ErrorBanner failure={state.failure} heading="Couldn't get the shipping labels" />
      </s-admin-print-action>
    );
  }

  const { summary } = state;
  const src = summary.pdfPath ?? undefined;
  return (
    <s-admin-print-action src={src}>
      <s-stack gap="base">
        {src && summary.printable.length > 0 ? (
          <s-section heading={single ? "Prints" : `Prints ${summary.printable.length} of the selected orders`}>
            <s-unordered-list>
              {summary.printable.map((label) => (
                <s-list-item key={label.labelId}>{label.orderName}: shipping label</s-list-item>
              ))}
            </s-unordered-list>
          </s-section>
        ) : (
          <s-banner tone="info" heading="Nothing to print">
            <s-paragraph>{nothingPrintableReason(summary, single)}</s-paragraph>
          </s-banner>
        )}
        {summary.zplOnly.length > 0 ? (
          <s-section heading="Thermal printer labels (ZPL), not in this PDF">
            <s-unordered-list>
              {summary.zplOnly.map((label) => (
                <s-list-item key={label.orderName}>
                  {label.orderName}: {label.howTo}
                </s-list-item>
              ))}
            </s-unordered-list>
          </s-section>
        ) : null}
        {summary.withoutLabel.length > 0 && (src || !single || summary.zplOnly.length > 0) ? (
          <s-section heading="No shipping label yet">
            <s-paragraph>{summary.withoutLabel.join(", ")}</s-paragraph>
          </s-section>
        ) : null}
      </s-stack>
    </s-admin-print-action>
  );
}
