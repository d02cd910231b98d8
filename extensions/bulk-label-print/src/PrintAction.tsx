import { render } from "preact";
import { useEffect, useState } from "preact/hooks";

import { loadPrintSummary, PrintSummaryAction, type PrintSummaryState } from "../../shared/print-summary";

const idToken = () => shopify.auth.idToken();

export default async () => {
  render(<Extension />, document.body);
};

/** The order list's Print → "Shipping labels": one PDF of the selected orders' bought labels. */
function Extension() {
  const orderIds = shopify.data.selected.map((order) => order.id);
  const key = orderIds.join(",");
  const [state, setState] = useState<PrintSummaryState>({ status: "loading" });

  useEffect(() => {
    if (key === "") return;
    let current = true;
    void loadPrintSummary(key.split(",")).then((next) => {
      if (current) setState(next);
    });
    return () => {
      current = false;
    };
  }, [key]);

  if (key === "") {
    return (
      <s-admin-print-action>
        <s-paragraph>Select orders first, then choose Print → Shipping labels.</s-paragraph>
      </s-admin-print-action>
    );
  }
  return <PrintSummaryAction state={state} single={false} idToken={idToken} />;
}
