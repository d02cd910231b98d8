import { render } from "preact";
import { useEffect, useState } from "preact/hooks";

import { loadPrintSummary, PrintSummaryAction, type PrintSummaryState } from "../../shared/print-summary";

const idToken = () => shopify.auth.idToken();

export default async () => {
  render(<Extension />, document.body);
};

/** The order page's Print → "Shipping label": the order's bought label as a PDF, or why not. */
function Extension() {
  const orderId = shopify.data.selected[0]?.id;
  const [state, setState] = useState<PrintSummaryState>({ status: "loading" });

  useEffect(() => {
    if (!orderId) return;
    let current = true;
    void loadPrintSummary([orderId]).then((next) => {
      if (current) setState(next);
    });
    return () => {
      current = false;
    };
  }, [orderId]);

  if (!orderId) {
    return (
      <s-admin-print-action>
        <s-paragraph>No order is selected, so there is nothing to print.</s-paragraph>
      </s-admin-print-action>
    );
  }
  return <PrintSummaryAction state={state} single idToken={idToken} />;
}
