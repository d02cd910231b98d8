import { useEffect, useState } from "preact/hooks";

import type { ExtensionPrintSummary } from "../../app/extension-api/contract";
import { type ApiFailure, requestJson } from "./api";
import { ErrorBanner } from "./ui";

export type PrintSummaryState =
  | { status: "loading" }
  | { status: "failed"; failure: ApiFailure }
  | { status: "loaded"; summary: ExtensionPrintSummary };

export async function loadPrintSummary(orderIds: string[]): Promise<PrintSummaryState> {
  const query = orderIds.map((id) => encodeURIComponent(id)).join(",");
  const result = await requestJson<ExtensionPrintSummary>(`/api/extensions/print/summary?orderIds=${query}`);
  return result.ok ? { status: "loaded", summary: result.data } : { status: "failed", failure: result.failure };
}

// Session tokens live about a minute: the one in the PDF's URL is renewed well before it ends,
// so Print works however long the dialog has been open.
const TOKEN_RENEW_MS = 40_000;

/**
 * A fresh session token for the PDF's URL (`id_token`): Shopify loads the print action's `src`
 * itself, and whether it adds a bearer token there is not documented (ADR 12), so the app's print
 * route also reads the token from the query. `idToken` is the extension's `shopify.auth.idToken`.
 */
export function usePrintToken(idToken: () => Promise<string | null>, wanted: boolean): string | null {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    const renew = () =>
      void idToken()
        .catch(() => null)
        .then((next) => {
          if (current) setToken(next);
        });
    renew();
    const timer = setInterval(renew, TOKEN_RENEW_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [idToken, wanted]);
  return token;
}

/** The PDF's path with the session token, once there is one. */
export function withIdToken(path: string, token: string | null): string {
  if (!token) return path;
  return `${path}${path.includes("?") ? "&" : "?"}id_token=${encodeURIComponent(token)}`;
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
export function PrintSummaryAction({
  state,
  single,
  idToken,
}: {
  state: PrintSummaryState;
  single: boolean;
  idToken: () => Promise<string | null>;
}) {
  const pdfPath = state.status === "loaded" ? state.summary.pdfPath : null;
  const token = usePrintToken(idToken, pdfPath !== null);
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
  const src = summary.pdfPath ? withIdToken(summary.pdfPath, token) : undefined;
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
