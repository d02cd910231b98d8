import { render } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";

import type {
  ExtensionBuyRequest,
  ExtensionBuyResponse,
  ExtensionLabel,
  ExtensionOrderState,
  ExtensionRate,
  ExtensionRatesResponse,
  ExtensionShipment,
  ExtensionVoidResponse,
} from "../../../app/extension-api/contract";
import { type ApiFailure, legacyIdOf, plural, requestJson } from "../../shared/api";
import { formatMoney } from "../../shared/money";
import { ErrorBanner, ProblemList } from "../../shared/ui";

export default async () => {
  render(<Extension />, document.body);
};

const HEADING = "Create label";
const SETTINGS_URL = "app:app/settings";

type Load =
  { status: "loading" } | { status: "failed"; failure: ApiFailure } | { status: "loaded"; order: ExtensionOrderState };

type Rates =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "failed"; failure: ApiFailure }
  | { status: "loaded"; rates: ExtensionRate[] };

/** What the last buy click came to, shown above everything else. */
type Notice =
  | { kind: "bought" }
  | { kind: "alreadyLabelled" }
  | { kind: "priceChanged"; rate: ExtensionRate }
  | { kind: "blocked"; message: string }
  | { kind: "failed"; failure: ApiFailure }
  // The purchase may have gone through (no answer, a server error, still being settled).
  | { kind: "unconfirmed"; failure: ApiFailure }
  | { kind: "voided"; label: ExtensionLabel }
  | { kind: "voidFailed"; failure: ApiFailure };

// Refusals that certainly bought nothing; any other failure of a purchase may have charged.
const NOTHING_BOUGHT = new Set([
  "PRICE_CHANGED",
  "PREFLIGHT_BLOCKED",
  "SHIPPING_REFUSED",
  "SETUP_REQUIRED",
  "INVALID_REQUEST",
  "NOT_FOUND",
  "NOT_AUTHENTICATED",
]);

function rateLabel(rate: ExtensionRate): string {
  const parts = [rate.carrier, rate.serviceName, formatMoney(rate.price)];
  if (rate.deliveryDays !== null) parts.push(plural(rate.deliveryDays, "day", "days"));
  return parts.join(" · ");
}

function cheapest(rates: ExtensionRate[]): ExtensionRate | undefined {
  return [...rates].sort(
    (a, b) => a.price.cents - b.price.cents || (a.deliveryDays ?? Infinity) - (b.deliveryDays ?? Infinity),
  )[0];
}

/** A draft is bought as drafted: its service, at its quoted price (the app refuses any other). */
function rateOfDraft(label: ExtensionLabel): ExtensionRate | undefined {
  if (!label.serviceCode || !label.price) return undefined;
  return {
    serviceCode: label.serviceCode,
    carrier: label.carrier ?? "",
    serviceName: label.serviceName ?? "",
    price: label.price,
    deliveryDays: null,
  };
}

/**
 * The order page's More actions → "Create label": the prefilled shipment, its rates, and a buy
 * button that names the exact amount; or the label the shipment already has.
 */
function Extension() {
  const orderId = shopify.data.selected[0]?.id ?? null;
  const legacyId = orderId ? legacyIdOf(orderId) : null;

  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [rates, setRates] = useState<Rates>({ status: "idle" });
  const [selectedCode, setSelectedCode] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [buying, setBuying] = useState(false);
  const buyingRef = useRef(false);
  // "Void label": asked to confirm (naming the refund), then sent once.
  const [voidStep, setVoidStep] = useState<"idle" | "confirm" | "voiding">("idle");

  const loadOrder = useCallback(() => {
    if (!legacyId) return undefined;
    let current = true;
    setLoad({ status: "loading" });
    void requestJson<ExtensionOrderState>(`/api/extensions/orders/${legacyId}/label`).then((result) => {
      if (!current) return;
      setLoad(result.ok ? { status: "loaded", order: result.data } : { status: "failed", failure: result.failure });
    });
    return () => {
      current = false;
    };
  }, [legacyId]);

  useEffect(() => loadOrder(), [loadOrder]);

  const order = load.status === "loaded" ? load.order : null;
  const shipment = order?.shipment ?? null;
  const label = shipment?.label ?? null;
  const canBuy = shipment !== null && !order?.setupProblem && shipment.problems.length === 0;
  // A draft already names its service and price: only a shipment without a label is quoted.
  const wantsRates = canBuy && label === null;
  const fulfillmentOrderId = wantsRates ? shipment.fulfillmentOrderId : null;

  const loadRates = useCallback(() => {
    if (!legacyId || !fulfillmentOrderId) return undefined;
    let current = true;
    setRates({ status: "loading" });
    void requestJson<ExtensionRatesResponse>(`/api/extensions/orders/${legacyId}/rates`, {
      method: "POST",
      body: { fulfillmentOrderId },
    }).then((result) => {
      if (!current) return;
      if (!result.ok) return setRates({ status: "failed", failure: result.failure });
      setRates({ status: "loaded", rates: result.data.rates });
      setSelectedCode(cheapest(result.data.rates)?.serviceCode ?? null);
    });
    return () => {
      current = false;
    };
  }, [legacyId, fulfillmentOrderId]);

  useEffect(() => loadRates(), [loadRates]);

  const updateShipment = (change: Partial<ExtensionShipment>) => {
    setLoad((previous) =>
      previous.status === "loaded" && previous.order.shipment
        ? { ...previous, order: { ...previous.order, shipment: { ...previous.order.shipment, ...change } } }
        : previous,
    );
  };

  const buy = async (rate: ExtensionRate) => {
    if (!legacyId || !shipment || buyingRef.current) return;
    buyingRef.current = true;
    setBuying(true);
    setNotice(null);
    const request: ExtensionBuyRequest = {
      fulfillmentOrderId: shipment.fulfillmentOrderId,
      serviceCode: rate.serviceCode,
      expectedCents: rate.price.cents,
      currency: rate.price.currency,
    };
    const result = await requestJson<ExtensionBuyResponse>(`/api/extensions/orders/${legacyId}/label`, {
      method: "POST",
      body: request,
    });
    buyingRef.current = false;
    setBuying(false);

    if (result.ok) {
      updateShipment({ label: result.data.label });
      setNotice(result.data.label.state === "bought" ? { kind: "bought" } : null);
      return;
    }
    const { failure } = result;
    const code = failure.body?.error.code;
    const newRate = failure.body?.rate;
    const existing = failure.body?.label;
    if (code === "PRICE_CHANGED" && newRate && shipment.label?.state === "draft") {
      // The draft as the app has it now (service and price): the next click confirms exactly that.
      updateShipment({
        label: {
          ...shipment.label,
          serviceCode: newRate.serviceCode,
          carrier: newRate.carrier,
          serviceName: newRate.serviceName,
          price: newRate.price,
        },
      });
      setNotice({ kind: "priceChanged", rate: newRate });
    } else if (code === "PRICE_CHANGED" && newRate) {
      setRates((previous) => {
        if (previous.status !== "loaded") return { status: "loaded", rates: [newRate] };
        const known = previous.rates.some((r) => r.serviceCode === newRate.serviceCode);
        return {
          status: "loaded",
          rates: known
            ? previous.rates.map((r) => (r.serviceCode === newRate.serviceCode ? newRate : r))
            : [...previous.rates, newRate],
        };
      });
      setSelectedCode(newRate.serviceCode);
      setNotice({ kind: "priceChanged", rate: newRate });
    } else if (code === "ALREADY_LABELLED" && existing) {
      updateShipment({ label: existing });
      setNotice({ kind: "alreadyLabelled" });
    } else if (code === "PREFLIGHT_BLOCKED" && failure.body?.problems?.length) {
      updateShipment({ problems: failure.body.problems });
      setNotice({ kind: "blocked", message: failure.message });
    } else if (
      (code && NOTHING_BOUGHT.has(code)) ||
      // The service refused or was down, as the app found when it read the label back: not bought.
      ((code === "SERVICE_UNAVAILABLE" || code === "SHOPIFY_UNAVAILABLE") &&
        (failure.status === 502 || failure.status === 503))
    ) {
      setNotice({ kind: "failed", failure });
    } else {
      // Never say "not bought" when it may have been: show what the app knows now.
      setNotice({ kind: "unconfirmed", failure });
      loadOrder();
    }
  };

  const voidLabel = async (toVoid: ExtensionLabel) => {
    if (voidStep === "voiding") return;
    setVoidStep("voiding");
    setNotice(null);
    const result = await requestJson<ExtensionVoidResponse>(`/api/extensions/labels/${toVoid.id}/void`, {
      method: "POST",
    });
    setVoidStep("idle");
    if (!result.ok) return setNotice({ kind: "voidFailed", failure: result.failure });
    setNotice({ kind: "voided", label: result.data.label });
    // The shipment is open again: the order as the app has it now offers a replacement label.
    loadOrder();
  };

  const closeButton = (text: string) => (
    <s-button slot="secondary-actions" onClick={() => shopify.close()}>
      {text}
    </s-button>
  );

  if (!legacyId) {
    return (
      <s-admin-action heading={HEADING}>
        <s-paragraph>No order is selected. Open an order, then choose Create label.</s-paragraph>
        {closeButton("Close")}
      </s-admin-action>
    );
  }

  if (load.status === "loading") {
    return (
      <s-admin-action heading={HEADING} loading>
        <s-paragraph>Loading the order…</s-paragraph>
        {closeButton("Cancel")}
      </s-admin-action>
    );
  }

  if (load.status === "failed") {
    return (
      <s-admin-action heading={HEADING}>
        <ErrorBanner failure={load.failure} heading="Couldn't load this order" />
        <s-button slot="primary-action" variant="primary" onClick={() => loadOrder()}>
          Try again
        </s-button>
        {closeButton("Cancel")}
      </s-admin-action>
    );
  }

  const { order: loaded } = load;
  const setupBanner = loaded.setupProblem ? (
    <s-banner tone="warning" heading="Finish setting up the app first">
      <s-paragraph>{loaded.setupProblem}</s-paragraph>
      <s-link href={SETTINGS_URL}>Open the app's Settings</s-link>
    </s-banner>
  ) : null;

  if (!shipment) {
    return (
      <s-admin-action heading={HEADING}>
        <s-stack gap="base">
          {setupBanner}
          <s-banner tone="info" heading="Nothing to ship">
            <s-paragraph>{loaded.nothingToShip ?? "This order has nothing to ship by carrier."}</s-paragraph>
          </s-banner>
        </s-stack>
        {closeButton("Close")}
      </s-admin-action>
    );
  }

  const loadedRates = rates.status === "loaded" ? rates.rates : [];
  const noticeView = notice ? <NoticeBanner notice={notice} /> : null;

  // "Void label" asks first, naming what comes back.
  if (label && label.state === "bought" && voidStep !== "idle") {
    return (
      <s-admin-action heading="Void this label?">
        <s-stack gap="base">
          <LabelDetails label={label} appUrl={loaded.appUrl} />
          <s-banner tone="warning" heading={`${refundOf(label)} back once the carrier confirms`}>
            <s-paragraph>
              The refund goes to your shipping balance, usually within minutes. Don't ship with this label. Its
              fulfillment in Shopify is cancelled now, so you can buy a replacement label right away.
            </s-paragraph>
          </s-banner>
        </s-stack>
        <s-button
          slot="primary-action"
          variant="primary"
          tone="critical"
          loading={voidStep === "voiding"}
          disabled={voidStep === "voiding"}
          onClick={() => void voidLabel(label)}
        >
          {`Void label and refund ${refundOf(label)}`}
        </s-button>
        <s-button slot="secondary-actions" onClick={() => setVoidStep("idle")}>
          Keep the label
        </s-button>
      </s-admin-action>
    );
  }

  // The shipment has a label: show it instead of offering a second one.
  if (label) {
    const isDraft = label.state === "draft";
    const draftRate = isDraft && canBuy ? rateOfDraft(label) : undefined;
    return (
      <s-admin-action heading={HEADING}>
        <s-stack gap="base">
          {noticeView}
          {setupBanner}
          <LabelDetails label={label} appUrl={loaded.appUrl} />
          {label.state === "bought" && label.canVoid ? (
            <s-button tone="critical" onClick={() => setVoidStep("confirm")}>
              Void label
            </s-button>
          ) : null}
          {isDraft && shipment.problems.length > 0 ? (
            <ProblemsBanner problems={shipment.problems} appUrl={loaded.appUrl} />
          ) : null}
          {isDraft && canBuy && !draftRate ? (
            <s-paragraph>
              This draft can't be bought from here. <s-link href={loaded.appUrl}>Buy it on the app's order page</s-link>
              .
            </s-paragraph>
          ) : null}
        </s-stack>
        {draftRate ? <BuyButton rate={draftRate} buying={buying} onBuy={(rate) => void buy(rate)} /> : null}
        {closeButton(isDraft ? "Cancel" : "Done")}
      </s-admin-action>
    );
  }

  const selected = loadedRates.find((rate) => rate.serviceCode === selectedCode);
  return (
    <s-admin-action heading={HEADING}>
      <s-stack gap="base">
        {noticeView}
        {setupBanner}
        <ShipmentSummary shipment={shipment} />
        {shipment.problems.length > 0 ? (
          <ProblemsBanner problems={shipment.problems} appUrl={loaded.appUrl} />
        ) : wantsRates ? (
          <RatesView
            rates={rates}
            appUrl={loaded.appUrl}
            selectedCode={selectedCode}
            disabled={buying}
            onSelect={(code) => {
              setSelectedCode(code);
              if (notice?.kind === "priceChanged" || notice?.kind === "failed") setNotice(null);
            }}
          />
        ) : null}
      </s-stack>
      {rates.status === "failed" && wantsRates ? (
        <s-button slot="primary-action" variant="primary" onClick={() => loadRates()}>
          Get rates again
        </s-button>
      ) : wantsRates && (rates.status !== "loaded" || loadedRates.length > 0) ? (
        <BuyButton rate={selected} buying={buying} onBuy={(rate) => void buy(rate)} />
      ) : null}
      {closeButton("Cancel")}
    </s-admin-action>
  );
}

const refundOf = (label: ExtensionLabel) => (label.price ? formatMoney(label.price) : "The label's price");

function BuyButton({
  rate,
  buying,
  onBuy,
}: {
  rate: ExtensionRate | undefined;
  buying: boolean;
  onBuy: (rate: ExtensionRate) => void;
}) {
  return (
    <s-button
      slot="primary-action"
      variant="primary"
      disabled={!rate || buying}
      loading={buying}
      onClick={() => {
        if (rate && !buying) onBuy(rate);
      }}
    >
      {rate ? `Buy label for ${formatMoney(rate.price)}` : "Buy label"}
    </s-button>
  );
}

function NoticeBanner({ notice }: { notice: Notice }) {
  switch (notice.kind) {
    case "bought":
      return (
        <s-banner tone="success" heading="Label bought">
          <s-paragraph>It's paid for. The tracking number goes to the order's fulfillment in Shopify.</s-paragraph>
        </s-banner>
      );
    case "alreadyLabelled":
      return (
        <s-banner tone="info" heading="This shipment already has a label">
          <s-paragraph>Nothing new was bought. This is the label it has.</s-paragraph>
        </s-banner>
      );
    case "priceChanged":
      return (
        <s-banner tone="warning" heading="The price changed">
          <s-paragraph>
            The price changed to {formatMoney(notice.rate.price)}. Nothing was bought. Check the new price and buy again
            if it's fine.
          </s-paragraph>
        </s-banner>
      );
    case "unconfirmed":
      return (
        <s-banner tone="warning" heading="We couldn't confirm the purchase">
          <s-paragraph>
            {notice.failure.message} Don't buy this label anywhere else: the label below is what the app knows now, and
            a purchase still being settled shows up here within a minute.
          </s-paragraph>
        </s-banner>
      );
    case "blocked":
      return (
        <s-banner tone="critical" heading="Nothing was bought">
          <s-paragraph>{notice.message}</s-paragraph>
        </s-banner>
      );
    case "failed":
      return <ErrorBanner failure={notice.failure} heading="The label wasn't bought" />;
    case "voided": {
      const amount = notice.label.refund?.amount ?? notice.label.price;
      return notice.label.refund?.status === "refunded" ? (
        <s-banner tone="success" heading="Label voided and refunded">
          <s-paragraph>{amount ? formatMoney(amount) : "Its price"} went back to your shipping balance.</s-paragraph>
        </s-banner>
      ) : (
        <s-banner tone="success" heading={`Refund pending${amount ? `: ${formatMoney(amount)}` : ""}`}>
          <s-paragraph>
            The carrier confirms the void within minutes, then the money goes back to your shipping balance. The
            fulfillment in Shopify is cancelled: you can buy a replacement label now.
          </s-paragraph>
        </s-banner>
      );
    }
    case "voidFailed":
      return <ErrorBanner failure={notice.failure} heading="The label wasn't voided" />;
  }
}

function ProblemsBanner({ problems, appUrl }: { problems: ExtensionShipment["problems"]; appUrl: string }) {
  return (
    <s-banner tone="warning" heading="Fix these before buying a label">
      <ProblemList problems={problems} />
      <s-link href={appUrl}>Fix on the app's order page</s-link>
    </s-banner>
  );
}

function ShipmentSummary({ shipment }: { shipment: ExtensionShipment }) {
  const { shipTo, boxes, customs, warnings } = shipment;
  return (
    <s-stack gap="base">
      <s-section heading="Ship to">
        <s-stack gap="none">
          <s-text type="strong">{shipTo.name}</s-text>
          {shipTo.lines.map((line, index) => (
            <s-text key={index}>{line}</s-text>
          ))}
        </s-stack>
        <s-paragraph>From {shipment.locationName}</s-paragraph>
      </s-section>
      <s-section heading={boxes.length === 1 ? "Box" : "Boxes"}>
        {boxes.length === 0 ? (
          <s-paragraph>No box chosen yet.</s-paragraph>
        ) : (
          <s-unordered-list>
            {boxes.map((box, index) => (
              <s-list-item key={index}>{box}</s-list-item>
            ))}
          </s-unordered-list>
        )}
      </s-section>
      {customs ? (
        <s-section heading="Customs">
          <s-paragraph>Contents: {customs.contentsType.replace(/_/g, " ")}</s-paragraph>
          <s-paragraph>
            {[
              `${customs.quantity} × ${customs.description || "no description"}`,
              customs.value ? `value ${formatMoney(customs.value)}` : "no value",
              customs.hsCode ? `HS ${customs.hsCode}` : "no HS code",
              customs.origin ? `made in ${customs.origin}` : "no country of origin",
            ].join(" · ")}
          </s-paragraph>
        </s-section>
      ) : null}
      {warnings.length > 0 ? (
        <s-banner tone="info" heading="Worth a look">
          <s-unordered-list>
            {warnings.map((warning) => (
              <s-list-item key={warning}>{warning}</s-list-item>
            ))}
          </s-unordered-list>
        </s-banner>
      ) : null}
    </s-stack>
  );
}

function RatesView({
  rates,
  appUrl,
  selectedCode,
  disabled,
  onSelect,
}: {
  rates: Rates;
  appUrl: string;
  selectedCode: string | null;
  disabled: boolean;
  onSelect: (serviceCode: string) => void;
}) {
  if (rates.status === "idle" || rates.status === "loading") {
    return (
      <s-stack direction="inline" gap="small-200">
        <s-spinner accessibilityLabel="Loading rates" />
        <s-text>Getting rates…</s-text>
      </s-stack>
    );
  }
  if (rates.status === "failed") return <ErrorBanner failure={rates.failure} heading="Couldn't get rates" />;
  if (rates.rates.length === 0) {
    return (
      <s-banner tone="warning" heading="No rates for this shipment">
        <s-paragraph>No carrier offered a rate. Check the address and the boxes on the app's order page.</s-paragraph>
        <s-link href={appUrl}>Open the app's order page</s-link>
      </s-banner>
    );
  }
  return (
    <s-choice-list
      label="Service"
      name="service"
      values={selectedCode ? [selectedCode] : []}
      disabled={disabled}
      onChange={(event) => {
        const code = event.currentTarget.values[0];
        if (code) onSelect(code);
      }}
    >
      {rates.rates.map((rate) => (
        <s-choice key={rate.serviceCode} value={rate.serviceCode} selected={rate.serviceCode === selectedCode}>
          {rateLabel(rate)}
        </s-choice>
      ))}
    </s-choice-list>
  );
}

function LabelDetails({ label, appUrl }: { label: ExtensionLabel; appUrl: string }) {
  const service = [label.carrier, label.serviceName].filter(Boolean).join(" · ") || "Unknown service";
  const status =
    label.state === "bought"
      ? "Bought"
      : label.state === "in_progress"
        ? "Being bought: check back in a minute."
        : label.state === "voided"
          ? label.refund?.status === "refunded"
            ? "Voided and refunded."
            : "Voided: refund pending."
          : "Draft, not bought yet.";
  return (
    <s-section heading={label.state === "draft" ? "Draft label" : "Shipping label"}>
      <s-stack gap="small-200">
        <s-paragraph>
          <s-text type="strong">{service}</s-text>
          {label.price ? ` · ${formatMoney(label.price)}` : null}
        </s-paragraph>
        <s-paragraph>{status}</s-paragraph>
        {label.trackingNumbers.length > 0 ? (
          <s-stack gap="none">
            <s-text>{label.trackingNumbers.length === 1 ? "Tracking number" : "Tracking numbers"}</s-text>
            <s-unordered-list>
              {label.trackingNumbers.map((tracking) => (
                <s-list-item key={tracking.number}>
                  {tracking.url ? (
                    <s-link href={tracking.url} target="_blank">
                      {tracking.number}
                    </s-link>
                  ) : (
                    tracking.number
                  )}
                </s-list-item>
              ))}
            </s-unordered-list>
          </s-stack>
        ) : label.state === "bought" ? (
          <s-paragraph>The tracking number shows here once the carrier sends it.</s-paragraph>
        ) : null}
        {label.writeBackError ? (
          <s-banner tone="warning" heading="Tracking isn't in Shopify yet">
            <s-paragraph>
              {label.writeBackError} <s-link href={appUrl}>Send it again on the app's order page</s-link>.
            </s-paragraph>
          </s-banner>
        ) : null}
        {label.state === "bought" && !label.printable ? (
          <s-paragraph>
            {label.format === "zpl"
              ? "This label is a ZPL file for thermal printers."
              : "This label's file isn't ready to print yet."}{" "}
            <s-link href={appUrl}>
              {label.format === "zpl" ? "Download it on the app's order page" : "Open the app's order page"}
            </s-link>
            .
          </s-paragraph>
        ) : label.state === "bought" ? (
          <s-paragraph>
            To print it, choose More actions → Print → Shipping label, or{" "}
            <s-link href={appUrl}>open the order in the app</s-link>.
          </s-paragraph>
        ) : null}
      </s-stack>
    </s-section>
  );
}
