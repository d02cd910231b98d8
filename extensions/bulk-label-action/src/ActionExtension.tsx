import { render } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";

import type { ExtensionBulkPreflightResponse, ExtensionBulkStartResponse } from "../../../app/extension-api/contract";
import { type ApiFailure, plural, requestJson } from "../../shared/api";
import { ErrorBanner } from "../../shared/ui";

export default async () => {
  render(<Extension />, document.body);
};

type State =
  | { status: "checking" }
  | { status: "checkFailed"; failure: ApiFailure }
  | { status: "checked"; preflight: ExtensionBulkPreflightResponse; starting: boolean; startFailure: ApiFailure | null }
  | { status: "started"; preflight: ExtensionBulkPreflightResponse; run: ExtensionBulkStartResponse };

/**
 * The order list's More actions → "Create labels": checks the selected orders (spends nothing)
 * and starts a bulk run. Prices are confirmed and labels bought on the run's review page in the app.
 */
function Extension() {
  const orderIds = shopify.data.selected.map((order) => order.id);
  const key = orderIds.join(",");
  const [state, setState] = useState<State>({ status: "checking" });
  const startingRef = useRef(false);

  const check = useCallback(() => {
    setState({ status: "checking" });
    let current = true;
    void requestJson<ExtensionBulkPreflightResponse>("/api/extensions/bulk/preflight", {
      method: "POST",
      body: { orderIds: key.split(",") },
    }).then((result) => {
      if (!current) return;
      setState(
        result.ok
          ? { status: "checked", preflight: result.data, starting: false, startFailure: null }
          : { status: "checkFailed", failure: result.failure },
      );
    });
    return () => {
      current = false;
    };
  }, [key]);

  useEffect(() => (key === "" ? undefined : check()), [key, check]);

  const start = async () => {
    if (state.status !== "checked" || state.preflight.ready === 0 || startingRef.current) return;
    startingRef.current = true;
    const { preflight } = state;
    setState({ ...state, starting: true, startFailure: null });
    const result = await requestJson<ExtensionBulkStartResponse>("/api/extensions/bulk/runs", {
      method: "POST",
      body: { orderIds: key.split(",") },
    });
    startingRef.current = false;
    setState(
      result.ok
        ? { status: "started", preflight, run: result.data }
        : { status: "checked", preflight, starting: false, startFailure: result.failure },
    );
  };

  const close = (
    <s-button slot="secondary-actions" onClick={() => shopify.close()}>
      {state.status === "started" ? "Done" : "Cancel"}
    </s-button>
  );

  if (key === "") {
    return (
      <s-admin-action heading="Create labels">
        <s-paragraph>Select the orders to ship first, then choose Create labels.</s-paragraph>
        {close}
      </s-admin-action>
    );
  }

  if (state.status === "checking") {
    return (
      <s-admin-action heading="Create labels" loading>
        <s-paragraph>Checking {plural(orderIds.length, "order", "orders")}…</s-paragraph>
        {close}
      </s-admin-action>
    );
  }

  if (state.status === "checkFailed") {
    return (
      <s-admin-action heading="Create labels">
        <ErrorBanner failure={state.failure} heading="Couldn't check the selected orders" />
        <s-button slot="primary-action" variant="primary" onClick={() => check()}>
          Try again
        </s-button>
        {close}
      </s-admin-action>
    );
  }

  if (state.status === "started") {
    return (
      <s-admin-action heading="Create labels">
        <s-banner tone="success" heading="Checking started">
          <s-paragraph>
            The app is getting rates for {plural(state.preflight.ready, "shipment", "shipments")}. Nothing has been
            bought yet: review the prices and buy the labels in the app.
          </s-paragraph>
        </s-banner>
        <s-button slot="primary-action" variant="primary" href={state.run.reviewUrl}>
          Review and buy in the app
        </s-button>
        {close}
      </s-admin-action>
    );
  }

  const { preflight, starting, startFailure } = state;
  return (
    <s-admin-action heading="Create labels">
      <s-stack gap="base">
        {startFailure ? <ErrorBanner failure={startFailure} heading="Couldn't start creating labels" /> : null}
        <s-heading>{plural(preflight.ready, "shipment ready", "shipments ready")}</s-heading>
        {preflight.ready > 0 ? (
          <s-paragraph>
            Creating labels gets rates with your shipping rules. Nothing is bought until you review the prices in the
            app.
          </s-paragraph>
        ) : (
          <s-paragraph>None of the selected orders can get a label right now.</s-paragraph>
        )}
        {preflight.needsFixing.length > 0 ? (
          <s-section
            heading={`${preflight.needsFixing.length} ${preflight.needsFixing.length === 1 ? "needs" : "need"} fixing`}
          >
            <s-paragraph>These are left out until they are fixed.</s-paragraph>
            <s-unordered-list>
              {preflight.needsFixing.map((order) => (
                <s-list-item key={order.orderName}>
                  <s-text type="strong">{order.orderName}</s-text>: {order.problems.join(" ")}{" "}
                  <s-link href={order.appUrl}>Fix in the app</s-link>
                </s-list-item>
              ))}
            </s-unordered-list>
          </s-section>
        ) : null}
        {preflight.leftOut.length > 0 ? (
          <s-section heading={`${preflight.leftOut.length} left out`}>
            <s-unordered-list>
              {preflight.leftOut.map((order) => (
                <s-list-item key={order.orderName}>
                  <s-text type="strong">{order.orderName}</s-text>: {order.reason}
                </s-list-item>
              ))}
            </s-unordered-list>
          </s-section>
        ) : null}
      </s-stack>
      <s-button
        slot="primary-action"
        variant="primary"
        disabled={preflight.ready === 0 || starting}
        loading={starting}
        onClick={() => void start()}
      >
        {`Create labels for ${plural(preflight.ready, "shipment", "shipments")}`}
      </s-button>
      {close}
    </s-admin-action>
  );
}
