import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack } from "@shopify/polaris";
import { useEffect, useMemo, useRef, useState } from "react";
import { useFetcher } from "react-router";

import type { FulfillmentOrderSection, OrderLabelPage } from "~/routes/app.orders.$orderId/order-label-page.server";
import { describeCustomsToSave, findCustomsToSave } from "~/shipments/customs-to-product";
import { collectFormProblems, writePath } from "~/shipments/label-form";
import { describeLabelOptions, formLabelOptions } from "~/shipments/label-options";
import type { LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { describeService } from "~/shipping/services";
import { formatAmount, formatMinorUnits } from "~/utils/money";

import type { ActionAnswer } from "./action-answer";
import { BoxesCard } from "./boxes-card";
import { BuyConfirmation } from "./buy-confirmation";
import { CustomsCard } from "./customs-card";
import { DraftCard } from "./draft-card";
import { fieldId, fieldPathFor, formFieldPaths, mergeProblems, stillApplies } from "./field-links";
import { ItemsCard } from "./items-card";
import { LabelFileCard } from "./label-file-card";
import { LabelResult } from "./label-result";
import { OptionsCard } from "./options-card";
import { ProblemSummary } from "./problem-list";
import { expectedRateCount } from "./rate-list";
import { type RatesAnswer, RatesCard } from "./rates-card";
import { ShipFromCard } from "./ship-from-card";
import { ShipToCard } from "./ship-to-card";

// One fulfillment order's label: the editable request (ship-from, ship-to with validation,
// items, boxes, customs, format, ship date) checked by preflight on every edit, then rates →
// Buy on a rate (confirmed with the exact amount: draft and purchase in one step) → the bought
// label and Print; or rates → draft (free) → Buy → the bought label.

/** Scrolls an element to the middle of the screen and moves focus to it (a screen reader reads it). */
function reveal(element: HTMLElement | null) {
  element?.scrollIntoView({ block: "center", behavior: "smooth" });
  element?.focus({ preventScroll: true });
}

/**
 * A failure shown where the merchant looks: each new one is scrolled into view and takes focus,
 * since the button that caused it may be far from where it appears, or off screen by then. Once
 * its element is on the page: an answer can come while the card still shows the skeleton.
 */
function useRevealWhenShown(failure: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  const revealed = useRef<unknown>(null);
  useEffect(() => {
    if (!failure || failure === revealed.current || !ref.current) return;
    revealed.current = failure;
    reveal(ref.current);
  });
  return ref;
}

function useAnswerToast(answer: ActionAnswer | undefined) {
  const shopify = useAppBridge();
  useEffect(() => {
    if (!answer) return;
    // "Save to product" is told apart from the draft: a refusal there is a banner, the draft stands.
    const saved = answer.productSave?.saved
      ? `; ${answer.productSave.saved} saved to ${answer.productSave.productTitle}`
      : "";
    if (answer.error) shopify.toast.show(answer.error.message, { isError: true });
    else if (answer.intent === "create-draft") shopify.toast.show(`Draft label created (free)${saved}`);
    else if (answer.intent === "redraft") shopify.toast.show(`Draft label updated (free)${saved}`);
    else if ((answer.intent === "buy" || answer.intent === "buy-rate") && !answer.writeBackError)
      shopify.toast.show("Label bought; tracking sent to Shopify");
    else if (answer.intent === "discard") shopify.toast.show("Draft discarded");
  }, [answer, shopify]);
}

const quantitiesOf = (prefill: FulfillmentOrderSection["prefill"]): Record<string, number> =>
  Object.fromEntries(prefill.lineItems.map((l) => [l.id, l.quantity]));

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The request a fetcher last posted, kept once its answer came: the details its problems judged. */
function usePostedRequest(fetcher: { formData?: FormData | undefined }): LabelRequestInput | null {
  const [posted, setPosted] = useState<LabelRequestInput | null>(null);
  const raw = fetcher.formData?.get("request");
  useEffect(() => {
    if (typeof raw === "string") setPosted(JSON.parse(raw) as LabelRequestInput);
  }, [raw]);
  return posted;
}

export function FulfillmentOrderLabel({
  page,
  section,
  streamedRates,
}: {
  page: OrderLabelPage;
  section: FulfillmentOrderSection;
  /** The rates that load with the page for the prefilled details (none when the page did not quote). */
  streamedRates?: Promise<RatesAnswer> | undefined;
}) {
  const [request, setRequest] = useState<LabelRequestInput>(section.prefill.request);
  const [quantities, setQuantities] = useState<Record<string, number>>(quantitiesOf(section.prefill));
  // Without a label, the form follows the server's prefill when the shipment's label went away
  // (voided, discarded) or the merchant had not changed the details: after a void the page shows
  // the shipment as it now is, and does not say the details changed when nothing did. A label
  // drafted or replaced keeps the details as the merchant posted them.
  // Rates that loaded with the page stay through a revalidation (after validating the address,
  // say), which quotes the same details again: shown rates never flash back to a skeleton. A
  // shipment that had no quote (a draft, now discarded) takes the first one that comes.
  const [streamed, setStreamed] = useState(streamedRates);
  useEffect(() => {
    if (!streamed && streamedRates) setStreamed(streamedRates);
  }, [streamed, streamedRates]);
  // Each time the shipment's label goes away, a new round: rates asked for before are not shown again.
  const [round, setRound] = useState(0);
  const labelId = section.label?.id ?? null;
  const [basis, setBasis] = useState({ prefill: section.prefill, labelId });
  if (!same(basis.prefill, section.prefill) || basis.labelId !== labelId) {
    const unedited = same(request, basis.prefill.request) && same(quantities, quantitiesOf(basis.prefill));
    const labelGone = basis.labelId !== null && labelId === null;
    if (labelId === null && (labelGone || unedited)) {
      setRequest(section.prefill.request);
      setQuantities(quantitiesOf(section.prefill));
    }
    if (labelGone) {
      setRound((n) => n + 1);
      // The rates the page loads with now, for the shipment as it is after the void.
      setStreamed(streamedRates);
    }
    setBasis({ prefill: section.prefill, labelId });
  }
  const [shipFromId, setShipFromId] = useState(section.locationId ?? page.shipFromOptions[0]?.locationId ?? "");
  const [notifyCustomer, setNotifyCustomer] = useState(page.settings.notifyCustomer);
  // "Save to product", checked by default: a fixed HS code or origin is fixed once, not per order.
  const [saveToProduct, setSaveToProduct] = useState(true);
  // "Edit" on a draft: the drafted details open for changes; choosing a rate again replaces the
  // draft (free). Each round gets fresh rates: the last round's were for other details.
  const [editRound, setEditRound] = useState(0);
  const [editing, setEditing] = useState(false);

  // Rates asked for in an earlier round (before a label was voided or discarded) are not this one's.
  const rates = useFetcher<ActionAnswer>({
    key: editing ? `rates-${section.id}-edit-${editRound}` : `rates-${section.id}-${round}`,
  });
  const draft = useFetcher<ActionAnswer>({ key: `draft-${section.id}` });
  const redraft = useFetcher<ActionAnswer>({ key: `redraft-${section.id}-${editRound}` });
  const validation = useFetcher<ActionAnswer>({ key: `validate-${section.id}` });
  const buy = useFetcher<ActionAnswer>({ key: `buy-${section.id}` });
  // "Buy" on a rate: its draft and purchase in one post (a refusal is not said again next round).
  const rateBuy = useFetcher<ActionAnswer>({ key: `buy-rate-${section.id}-${round}` });
  const discard = useFetcher<ActionAnswer>({ key: `discard-${section.id}` });
  useAnswerToast(draft.data);
  useAnswerToast(buy.data);
  useAnswerToast(rateBuy.data);
  useAnswerToast(discard.data);
  useAnswerToast(redraft.data);
  const ratesFailure = useRevealWhenShown(rates.data?.error);
  const draftFailure = useRevealWhenShown((editing ? redraft : draft).data?.error);
  const rateBuyFailure = useRevealWhenShown(rateBuy.data?.error);
  // The rate whose Buy confirmation is open.
  const [confirming, setConfirming] = useState<Rate | null>(null);
  const postedFor = {
    rates: usePostedRequest(rates),
    draft: usePostedRequest(draft),
    redraft: usePostedRequest(redraft),
    rateBuy: usePostedRequest(rateBuy),
  };
  // The draft was replaced: the page now shows the new one, its details read-only again.
  const replaced = redraft.state === "idle" && redraft.data?.intent === "redraft" && !redraft.data.error;
  useEffect(() => {
    if (replaced) setEditing(false);
  }, [replaced]);

  const problems = useMemo(
    () =>
      collectFormProblems({
        prefilled: section.prefill.request,
        prefillProblems: section.prefill.problems,
        current: request,
        products: section.prefill.products,
      }),
    [request, section.prefill],
  );
  // What the server answered about the details, less what the merchant changed since: a weight
  // fixed after Get rates said it was missing is not still said to be missing.
  const serverProblems = [
    stillApplies(rates.data?.problems ?? [], postedFor.rates, request),
    stillApplies(
      (editing ? redraft : draft).data?.problems ?? [],
      editing ? postedFor.redraft : postedFor.draft,
      request,
    ),
    stillApplies(rateBuy.data?.problems ?? [], postedFor.rateBuy, request),
    validation.data?.problems ?? [],
  ].flat();
  const allProblems = mergeProblems(problems, serverProblems, request);
  const blocked = allProblems.some((p) => p.severity === "blocking");
  const notShipped = section.prefill.problems.some(
    (p) => p.code === "DELIVERY_NOT_SHIPPING" || p.code === "NOTHING_TO_SHIP",
  );

  const set = (path: string, value: unknown) => setRequest((r) => writePath(r, path, value));
  // The streamed rates were quoted for the prefilled details; once those change they no longer apply.
  const stale = useMemo(
    () => JSON.stringify(request) !== JSON.stringify(section.prefill.request),
    [request, section.prefill.request],
  );
  const lineItems = section.lines
    .map((l) => ({ id: l.id, quantity: quantities[l.id] ?? 0 }))
    .filter((l) => l.quantity > 0);
  const label = section.label;
  const chosen = label && label.status !== "voided" ? label : null;
  // A drafted label's details stay legible but cannot change until the merchant chooses Edit.
  const locked = Boolean(chosen) && !editing;
  const fields = formFieldPaths(request, section.international);
  const goToField = (path: string) => reveal(document.getElementById(fieldId(path)));
  const startEditing = () => {
    setEditRound((n) => n + 1);
    setEditing(true);
  };
  const cancelEditing = () => {
    setRequest(section.prefill.request);
    setQuantities(quantitiesOf(section.prefill));
    setEditing(false);
  };

  if (chosen && (chosen.status === "purchased" || chosen.status === "fulfilled")) {
    return (
      <LabelResult
        label={chosen}
        notifyCustomer={notifyCustomer}
        withPackingSlip={page.settings.packingSlips !== "off"}
        // Bought on this page: the button that bought it is gone, Print is the next step.
        focusPrint={rateBuy.data?.label?.id === chosen.id || buy.data?.label?.id === chosen.id}
      />
    );
  }

  const validated = validation.data?.validation ?? section.storedValidation;
  const customsToSave = findCustomsToSave(section.customsProduct, request.customs);
  const productSave = redraft.data?.productSave ?? draft.data?.productSave ?? null;
  const validatePrice = page.validationPriceCents === 0 ? "free" : formatMinorUnits(page.validationPriceCents);

  const sendRates = () =>
    rates.submit(
      { intent: "get-rates", fulfillmentOrderId: section.id, request: JSON.stringify(request) },
      { method: "post" },
    );
  const chooseRate = (rate: Rate) =>
    (editing && chosen ? redraft : draft).submit(
      {
        ...(editing && chosen ? { intent: "redraft", labelId: chosen.id } : { intent: "create-draft" }),
        fulfillmentOrderId: section.id,
        request: JSON.stringify(request),
        lineItems: JSON.stringify(lineItems),
        rate: JSON.stringify(rate),
        saveToProduct: String(saveToProduct && customsToSave !== null),
      },
      { method: "post" },
    );

  // Buy on a rate, once confirmed: the draft and the purchase in one post, the same details as Choose.
  const buyRate = (rate: Rate) =>
    rateBuy.submit(
      {
        intent: "buy-rate",
        fulfillmentOrderId: section.id,
        request: JSON.stringify(request),
        lineItems: JSON.stringify(lineItems),
        rate: JSON.stringify(rate),
        saveToProduct: String(saveToProduct && customsToSave !== null),
        notifyCustomer: String(notifyCustomer),
      },
      { method: "post" },
    );

  // The rate whose draft (or purchase) is on its way, to show it working.
  const pendingRateId = (fetchers: readonly { state: string; formData?: FormData | undefined }[]): string | null => {
    const pending = fetchers.find((f) => f.state !== "idle")?.formData?.get("rate");
    if (typeof pending !== "string") return null;
    const parsed: unknown = JSON.parse(pending);
    return parsed && typeof parsed === "object" && "rate_id" in parsed ? String(parsed.rate_id) : null;
  };
  const busyRateId = pendingRateId([draft, redraft]);
  const buyingRateId = pendingRateId([rateBuy]);

  if (notShipped) {
    return (
      <Banner tone="info" title="No label for this shipment">
        <p>{section.prefill.problems[0]?.message}</p>
      </Banner>
    );
  }

  return (
    <BlockStack gap="400">
      <ProblemSummary problems={allProblems} fieldFor={(path) => fieldPathFor(path, fields)} onGoTo={goToField} />

      {productSave?.error ? (
        <Banner tone="warning" title="Not saved to the product">
          <p>{productSave.error}</p>
          <p>The draft label was made with the details you entered.</p>
        </Banner>
      ) : null}

      {chosen && (chosen.status === "draft" || chosen.status === "creating" || chosen.status === "purchasing") ? (
        <DraftCard
          draft={chosen}
          editing={editing}
          notifyCustomer={notifyCustomer}
          onNotifyCustomerChange={setNotifyCustomer}
          buy={buy}
          discard={discard}
          redraft={redraft}
          onStartEditing={startEditing}
          onCancelEditing={cancelEditing}
          // A rate's Buy that drafted this label but was refused the purchase says why here.
          refusal={rateBuy.state === "idle" && rateBuy.data?.error ? rateBuy.data.error.message : null}
          focusBuy={draft.data?.labelId === chosen.id || redraft.data?.labelId === chosen.id}
        />
      ) : null}

      {/* Rates up front (issue 25 §2): above the details, which the merchant edits only when needed. */}
      {!chosen || editing ? (
        <RatesCard
          editing={editing}
          blocked={blocked}
          apiKeyConfigured={page.setup.apiKeyConfigured}
          asking={rates.state !== "idle"}
          onGetRates={sendRates}
          asked={rates.data}
          askedFailureRef={ratesFailure}
          streamed={editing ? null : (streamed ?? null)}
          stale={stale}
          expectedRows={expectedRateCount(request)}
          customerPaid={page.order.shippingPaid}
          draftFailure={
            <>
              {(editing ? redraft : draft).data?.error ? (
                <div ref={draftFailure} tabIndex={-1}>
                  <Banner tone="critical" title={editing ? "The draft was not changed" : "The draft was not created"}>
                    <p>{(editing ? redraft : draft).data?.error?.message}</p>
                  </Banner>
                </div>
              ) : null}
              {!editing && rateBuy.state === "idle" && rateBuy.data?.error ? (
                <div ref={rateBuyFailure} tabIndex={-1}>
                  <Banner tone="critical" title="The label was not bought">
                    <p>{rateBuy.data.error.message}</p>
                  </Banner>
                </div>
              ) : null}
            </>
          }
          choose={{
            customerChose: page.order.shippingMethod,
            busyRateId,
            buyingRateId,
            disabled:
              draft.state !== "idle" ||
              redraft.state !== "idle" ||
              rateBuy.state !== "idle" ||
              confirming !== null ||
              lineItems.length === 0,
            onChoose: chooseRate,
            // While a draft is edited, choosing a rate replaces it; buying is the draft's own Buy.
            onBuy: editing ? undefined : setConfirming,
          }}
        />
      ) : null}

      {confirming ? (
        <BuyConfirmation
          open
          price={formatAmount(confirming.amount, confirming.currency)}
          service={describeService({ carrier: confirming.carrier, service: confirming.service })}
          packageCount={request.parcels?.length ?? 1}
          options={describeLabelOptions(formLabelOptions(request))}
          notifyCustomer={notifyCustomer}
          onNotifyCustomerChange={setNotifyCustomer}
          busy={rateBuy.state !== "idle"}
          onConfirm={() => {
            setConfirming(null);
            buyRate(confirming);
          }}
          onClose={() => setConfirming(null)}
        />
      ) : null}

      <BlockStack gap="400">
        <ShipFromCard
          options={page.shipFromOptions}
          chosenId={shipFromId}
          onChoose={(option) => {
            setShipFromId(option.locationId);
            set("from_address", option.address);
          }}
          fulfilledFrom={section.locationName}
          problems={allProblems}
          locked={locked}
        />

        <ShipToCard
          fulfillmentOrderId={section.id}
          request={request}
          setRequest={setRequest}
          set={set}
          problems={allProblems}
          locked={locked}
          validation={validation}
          validated={validated}
          validatePrice={validatePrice}
        />

        <ItemsCard lines={section.lines} quantities={quantities} setQuantities={setQuantities} locked={locked} />

        <BoxesCard
          request={request}
          setRequest={setRequest}
          set={set}
          problems={allProblems}
          locked={locked}
          boxPresets={page.boxPresets}
        />

        {section.international ? (
          <CustomsCard
            request={request}
            problems={allProblems}
            set={set}
            locked={locked}
            saveToProduct={
              customsToSave && section.customsProduct && !locked
                ? {
                    productTitle: section.customsProduct.title,
                    what: describeCustomsToSave(customsToSave),
                    checked: saveToProduct,
                    onChange: setSaveToProduct,
                  }
                : null
            }
          />
        ) : null}
        <OptionsCard
          request={request}
          problems={allProblems}
          set={set}
          locked={locked}
          lockedOptions={chosen?.options ?? []}
          itemsValue={section.itemsValue}
        />

        <LabelFileCard request={request} set={set} problems={allProblems} locked={locked} defaults={page.settings} />
      </BlockStack>
    </BlockStack>
  );
}
