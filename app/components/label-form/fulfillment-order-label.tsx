import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineStack,
  Modal,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { type ComponentProps, useEffect, useMemo, useRef, useState } from "react";

import type {
  FulfillmentOrderSection,
  LabelSummary,
  OrderLabelPage,
  ValidatedAddressView,
} from "~/screens/order-label-page.server";
import { describeCustomsToSave, findCustomsToSave } from "~/shipments/customs-to-product";
import { collectFormProblems, problemsAt, writePath } from "~/shipments/label-form";
import type { ProductCustomsSave } from "~/shipments/save-customs-to-product.server";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { describeService } from "~/shipping/services";
import { formatMinorUnits } from "~/utils/money";

import { AddressFields } from "./address-fields";
import { fieldId, fieldPathFor, formFieldPaths, mergeProblems } from "./field-links";
import { ShortcutAction } from "./keyboard-shortcuts";
import { LabelResult } from "./label-result";
import { OptionsCard } from "./options-card";
import { fieldError, FieldNotes, ProblemSummary } from "./problem-list";
import { expectedRateCount } from "./rate-list";
import { type RatesAnswer, RatesCard } from "./rates-card";

// One fulfillment order's label: the editable request (ship-from, ship-to with validation,
// items, boxes, customs, format, ship date) checked by preflight on every edit, then rates →
// draft (free) → Buy (confirmed with the exact amount) → the bought label.

type ActionAnswer = {
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

type ParcelInput = NonNullable<LabelRequestInput["parcel"]>;

function boxesOf(request: LabelRequestInput): ParcelInput[] {
  return (request.parcels ?? [request.parcel]).filter((p): p is ParcelInput => p != null);
}

function withBoxes(request: LabelRequestInput, boxes: ParcelInput[]): LabelRequestInput {
  const next = { ...request };
  if (boxes.length === 1) {
    next.parcel = boxes[0] ?? null;
    delete next.parcels;
  } else {
    next.parcels = boxes;
    delete next.parcel;
  }
  return next;
}

const num = (value: string): number | null => {
  if (value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

/** Scrolls an element to the middle of the screen and moves focus to it (a screen reader reads it). */
function reveal(element: HTMLElement | null) {
  element?.scrollIntoView({ block: "center", behavior: "smooth" });
  element?.focus({ preventScroll: true });
}

/**
 * A failure shown where the merchant looks: each new one is scrolled into view and takes focus,
 * since the button that caused it may be far from where it appears, or off screen by then.
 */
function useRevealWhenShown(failure: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (failure) reveal(ref.current);
  }, [failure]);
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
    else if (answer.intent === "buy" && !answer.writeBackError)
      shopify.toast.show("Label bought; tracking sent to Shopify");
    else if (answer.intent === "discard") shopify.toast.show("Draft discarded");
  }, [answer, shopify]);
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
  const [quantities, setQuantities] = useState<Record<string, number>>(
    Object.fromEntries(section.prefill.lineItems.map((l) => [l.id, l.quantity])),
  );
  const [shipFromId, setShipFromId] = useState(section.locationId ?? page.shipFromOptions[0]?.locationId ?? "");
  const [notifyCustomer, setNotifyCustomer] = useState(page.settings.notifyCustomer);
  const [confirmBuy, setConfirmBuy] = useState(false);
  // "Save to product", checked by default: a fixed HS code or origin is fixed once, not per order.
  const [saveToProduct, setSaveToProduct] = useState(true);
  // "Edit" on a draft: the drafted details open for changes; choosing a rate again replaces the
  // draft (free). Each round gets fresh rates: the last round's were for other details.
  const [editRound, setEditRound] = useState(0);
  const [editing, setEditing] = useState(false);

  const rates = useFetcher<ActionAnswer>({
    key: editing ? `rates-${section.id}-edit-${editRound}` : `rates-${section.id}`,
  });
  const draft = useFetcher<ActionAnswer>({ key: `draft-${section.id}` });
  const redraft = useFetcher<ActionAnswer>({ key: `redraft-${section.id}-${editRound}` });
  const validation = useFetcher<ActionAnswer>({ key: `validate-${section.id}` });
  const buy = useFetcher<ActionAnswer>({ key: `buy-${section.id}` });
  const discard = useFetcher<ActionAnswer>({ key: `discard-${section.id}` });
  useAnswerToast(draft.data);
  useAnswerToast(buy.data);
  useAnswerToast(discard.data);
  useAnswerToast(redraft.data);
  const ratesFailure = useRevealWhenShown(rates.data?.error);
  const draftFailure = useRevealWhenShown((editing ? redraft : draft).data?.error);
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
  const serverProblems = [rates.data, editing ? redraft.data : draft.data, validation.data].flatMap(
    (a) => a?.problems ?? [],
  );
  const allProblems = mergeProblems(problems, serverProblems, request);
  const blocked = allProblems.some((p) => p.severity === "blocking");
  const notShipped = section.prefill.problems.some(
    (p) => p.code === "DELIVERY_NOT_SHIPPING" || p.code === "NOTHING_TO_SHIP",
  );

  // Rates that loaded with the page stay through a revalidation (after validating the address,
  // say), which quotes the same details again: shown rates never flash back to a skeleton. A
  // shipment that had no quote (a draft, now discarded) takes the first one that comes.
  const [streamed, setStreamed] = useState(streamedRates);
  useEffect(() => {
    if (!streamed && streamedRates) setStreamed(streamedRates);
  }, [streamed, streamedRates]);

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
    setQuantities(Object.fromEntries(section.prefill.lineItems.map((l) => [l.id, l.quantity])));
    setEditing(false);
  };

  if (chosen && (chosen.status === "purchased" || chosen.status === "fulfilled")) {
    return (
      <LabelResult
        label={chosen}
        notifyCustomer={notifyCustomer}
        withPackingSlip={page.settings.packingSlips !== "off"}
      />
    );
  }

  const validated = validation.data?.validation ?? section.storedValidation;
  const customsToSave = findCustomsToSave(section.customsProduct, request.customs);
  const productSave = redraft.data?.productSave ?? draft.data?.productSave ?? null;
  const boxes = boxesOf(request);
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

  // The rate whose draft is on its way, to show it working.
  const busyRateId = ((): string | null => {
    const pending = [draft, redraft].find((f) => f.state !== "idle")?.formData?.get("rate");
    if (typeof pending !== "string") return null;
    const parsed: unknown = JSON.parse(pending);
    return parsed && typeof parsed === "object" && "rate_id" in parsed ? String(parsed.rate_id) : null;
  })();

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
        <Card>
          <BlockStack gap="300">
            <InlineStack align="space-between" blockAlign="center">
              <Text as="h2" variant="headingMd">
                Draft label:{" "}
                {describeService({ carrier: chosen.carrier, service: chosen.serviceName ?? chosen.serviceCode })}
              </Text>
              <Badge tone={chosen.progress === "on_hold" ? "attention" : "info"}>
                {chosen.status === "purchasing"
                  ? "Buying…"
                  : chosen.progress === "on_hold"
                    ? "On hold"
                    : "Draft (free)"}
              </Badge>
            </InlineStack>
            {/* Shopify holds the shipment: buying is refused (and says why) until the hold is released. */}
            {chosen.progress === "on_hold" && chosen.attention ? (
              <Banner tone="warning" title="On hold in Shopify">
                <p>{chosen.attention}</p>
              </Banner>
            ) : null}
            {editing ? (
              <Banner tone="info" title="Editing this draft">
                <p>
                  Change the details below, then get rates and choose one: the new draft replaces this one, free. Until
                  then this draft stays as it is.
                </p>
              </Banner>
            ) : (
              <Text as="p">
                Quoted {formatMinorUnits(chosen.quotedCents, chosen.currency)}. Drafts cost nothing; you are charged
                only when you buy. To change the details below, choose Edit.
              </Text>
            )}
            <Checkbox
              label="Notify the customer with the tracking link"
              checked={notifyCustomer}
              onChange={setNotifyCustomer}
            />
            {/* Hidden while a new attempt runs: the last refusal is not this attempt's answer. */}
            {buy.data?.error && buy.state === "idle" ? (
              <Banner tone="critical" title="The label was not bought">
                <p>{buy.data.error.message}</p>
              </Banner>
            ) : null}
            {buy.data?.writeBackError ? (
              <Banner tone="warning" title="Bought, but tracking did not reach Shopify">
                <p>{buy.data.writeBackError}</p>
              </Banner>
            ) : null}
            <InlineStack gap="200">
              <Button
                variant="primary"
                onClick={() => setConfirmBuy(true)}
                loading={buy.state !== "idle"}
                disabled={buy.state !== "idle" || chosen.status === "creating" || editing}
              >
                {`Buy label for ${formatMinorUnits(chosen.quotedCents, chosen.currency)}`}
              </Button>
              {/* B opens the same confirmation as the button: a key never spends by itself. */}
              <ShortcutAction
                name="buy"
                onPress={() => setConfirmBuy(true)}
                disabled={buy.state !== "idle" || chosen.status === "creating" || editing || confirmBuy}
              />
              {chosen.status === "draft" ? (
                editing ? (
                  <Button onClick={cancelEditing} disabled={redraft.state !== "idle"}>
                    Cancel editing
                  </Button>
                ) : (
                  <Button onClick={startEditing} disabled={buy.state !== "idle" || discard.state !== "idle"}>
                    Edit
                  </Button>
                )
              ) : null}
              <discard.Form method="post">
                <input type="hidden" name="intent" value="discard" />
                <input type="hidden" name="labelId" value={chosen.id} />
                <Button
                  submit
                  loading={discard.state !== "idle"}
                  disabled={discard.state !== "idle" || buy.state !== "idle" || redraft.state !== "idle"}
                >
                  Discard draft
                </Button>
              </discard.Form>
            </InlineStack>
          </BlockStack>
          <Modal
            open={confirmBuy}
            onClose={() => setConfirmBuy(false)}
            title="Buy this label?"
            primaryAction={{
              content: `Buy for ${formatMinorUnits(chosen.quotedCents, chosen.currency)}`,
              loading: buy.state !== "idle",
              disabled: buy.state !== "idle",
              onAction: () => {
                setConfirmBuy(false);
                buy.submit(
                  { intent: "buy", labelId: chosen.id, notifyCustomer: String(notifyCustomer) },
                  { method: "post" },
                );
              },
            }}
            secondaryActions={[{ content: "Cancel", onAction: () => setConfirmBuy(false) }]}
          >
            <Modal.Section>
              <Text as="p">
                Your shipping account is charged {formatMinorUnits(chosen.quotedCents, chosen.currency)} for{" "}
                {describeService({ carrier: chosen.carrier, service: chosen.serviceName ?? chosen.serviceCode })}
                {chosen.packageCount > 1 ? ` (${chosen.packageCount} boxes)` : ""}
                {chosen.options.length > 0 ? `, which includes: ${chosen.options.join(", ")}` : ""}. Then the tracking
                number is added to the fulfillment in Shopify{notifyCustomer ? " and the customer is notified" : ""}.
              </Text>
            </Modal.Section>
          </Modal>
        </Card>
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
            (editing ? redraft : draft).data?.error ? (
              <div ref={draftFailure} tabIndex={-1}>
                <Banner tone="critical" title={editing ? "The draft was not changed" : "The draft was not created"}>
                  <p>{(editing ? redraft : draft).data?.error?.message}</p>
                </Banner>
              </div>
            ) : null
          }
          choose={{
            customerChose: page.order.shippingMethod,
            busyRateId,
            disabled: draft.state !== "idle" || redraft.state !== "idle" || lineItems.length === 0,
            onChoose: chooseRate,
          }}
        />
      ) : null}

      <BlockStack gap="400">
        <BlockStack gap="400">
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Ship from
              </Text>
              <LockableSelect
                locked={locked}
                id={fieldId("from_address")}
                label="Location"
                options={page.shipFromOptions.map((o) => ({ label: o.name, value: o.locationId }))}
                value={shipFromId}
                onChange={(id) => {
                  setShipFromId(id);
                  const option = page.shipFromOptions.find((o) => o.locationId === id);
                  if (option) set("from_address", option.address);
                }}
                helpText={`Shopify fulfills this shipment from ${section.locationName}; the label's return address follows this choice.`}
                error={fieldError(problemsAt(allProblems, "from_address"))}
              />
            </BlockStack>
          </Card>

          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Ship to
                </Text>
                {!locked && (request.to_address?.country === "US" || !request.to_address?.country) ? (
                  <validation.Form method="post">
                    <input type="hidden" name="intent" value="validate-address" />
                    <input type="hidden" name="fulfillmentOrderId" value={section.id} />
                    <input type="hidden" name="address" value={JSON.stringify(request.to_address ?? {})} />
                    <Button submit loading={validation.state !== "idle"} disabled={validation.state !== "idle"}>
                      {`Validate address (${validatePrice})`}
                    </Button>
                  </validation.Form>
                ) : null}
              </InlineStack>
              <AddressFields
                prefix="to_address"
                address={request.to_address}
                problems={allProblems}
                onChange={(field, value) => set(`to_address.${field}`, value)}
                readOnly={locked}
              />
              {validation.data?.error ? (
                <Banner tone="critical">
                  <p>{validation.data.error.message}</p>
                </Banner>
              ) : null}
              {validated ? (
                <Banner
                  tone={validated.result.dpv.deliverable ? "success" : "warning"}
                  title={validated.result.dpv.deliverable ? "Deliverable address" : "The carrier may not deliver here"}
                >
                  <BlockStack gap="200">
                    <Text as="p">
                      {validated.result.address.street1}
                      {validated.result.address.street2 ? `, ${validated.result.address.street2}` : ""},{" "}
                      {validated.result.address.city}, {validated.result.address.state} {validated.result.address.zip}
                      {validated.result.zip4 ? `-${validated.result.zip4}` : ""}
                    </Text>
                    <Text as="p" tone="subdued">
                      {validated.result.residential ? "Residential" : "Commercial"} ·{" "}
                      {validated.result.zip4 ? `ZIP+4 ${validated.result.zip4}` : "no ZIP+4"} ·{" "}
                      {validated.reused
                        ? "checked before, not charged again"
                        : `charged ${formatMinorUnits(validated.billedCents)}`}
                    </Text>
                    {locked ? null : (
                      <div>
                        <Button
                          onClick={() =>
                            setRequest((r) => ({
                              ...r,
                              to_address: {
                                ...r.to_address,
                                street1: validated.result.address.street1,
                                street2: validated.result.address.street2 ?? null,
                                city: validated.result.address.city,
                                state: validated.result.address.state,
                                zip: validated.result.zip4
                                  ? `${validated.result.address.zip.slice(0, 5)}-${validated.result.zip4}`
                                  : validated.result.address.zip,
                                residential: validated.result.residential,
                              },
                            }))
                          }
                        >
                          Use this address
                        </Button>
                      </div>
                    )}
                  </BlockStack>
                </Banner>
              ) : null}
            </BlockStack>
          </Card>

          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Items in this label
              </Text>
              {section.lines.map((line) => (
                <InlineStack key={line.id} align="space-between" blockAlign="center" gap="300">
                  <Box minWidth="50%">
                    <Text as="p">
                      {line.title}
                      {line.variantTitle ? ` – ${line.variantTitle}` : ""}
                    </Text>
                    <Text as="p" tone="subdued" variant="bodySm">
                      {line.sku ? `SKU ${line.sku} · ` : ""}
                      {line.remaining} of {line.total} left to ship
                    </Text>
                  </Box>
                  <div style={{ width: 120 }}>
                    <TextField
                      label={`Quantity of ${line.title}`}
                      labelHidden
                      type="number"
                      min={0}
                      max={line.remaining}
                      value={String(quantities[line.id] ?? 0)}
                      onChange={(v) =>
                        setQuantities((q) => ({
                          ...q,
                          [line.id]: Math.max(0, Math.min(line.remaining, Math.floor(Number(v) || 0))),
                        }))
                      }
                      autoComplete="off"
                      suffix={`/ ${line.remaining}`}
                      readOnly={locked}
                    />
                  </div>
                </InlineStack>
              ))}
              {lineItems.length === 0 ? (
                <Text as="p" tone="critical">
                  Choose at least one item to ship.
                </Text>
              ) : null}
            </BlockStack>
          </Card>

          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between">
                <Text as="h2" variant="headingMd">
                  Boxes
                </Text>
                {locked ? null : (
                  <Button
                    onClick={() =>
                      setRequest((r) => withBoxes(r, [...boxesOf(r), { ...(boxesOf(r)[0] ?? {}), weight: null }]))
                    }
                  >
                    Add box
                  </Button>
                )}
              </InlineStack>
              <FieldNotes problems={problemsAt(allProblems, "parcels").filter((p) => p.path === "parcels")} />
              {boxes.map((box, index) => {
                const path = request.parcels ? `parcels[${index}]` : "parcel";
                const at = problemsAt(allProblems, path);
                return (
                  <BlockStack key={index} gap="200">
                    <InlineStack align="space-between" blockAlign="center">
                      <Text as="h3" variant="headingSm">
                        Box {index + 1}
                      </Text>
                      {boxes.length > 1 && !locked ? (
                        <Button
                          variant="plain"
                          tone="critical"
                          onClick={() =>
                            setRequest((r) =>
                              withBoxes(
                                r,
                                boxesOf(r).filter((_, i) => i !== index),
                              ),
                            )
                          }
                        >
                          Remove box
                        </Button>
                      ) : null}
                    </InlineStack>
                    {page.boxPresets.length > 0 ? (
                      <LockableSelect
                        locked={locked}
                        label="Saved box"
                        placeholder="Choose a box"
                        options={page.boxPresets.map((p) => ({ label: p.name, value: p.id }))}
                        // The preset whose size the box has (the default box is prefilled), else none.
                        value={
                          page.boxPresets.find(
                            (p) =>
                              p.length === box.length &&
                              p.width === box.width &&
                              p.height === box.height &&
                              p.dimensionUnit === (box.dimension_unit ?? "in"),
                          )?.id ?? ""
                        }
                        onChange={(id) => {
                          const preset = page.boxPresets.find((p) => p.id === id);
                          if (!preset) return;
                          set(`${path}.length`, preset.length);
                          set(`${path}.width`, preset.width);
                          set(`${path}.height`, preset.height);
                          set(`${path}.dimension_unit`, preset.dimensionUnit);
                        }}
                      />
                    ) : null}
                    <FormLayout>
                      <FormLayout.Group condensed>
                        {(["weight", "length", "width", "height"] as const).map((field) => (
                          <TextField
                            key={field}
                            id={fieldId(`${path}.${field}`)}
                            readOnly={locked}
                            label={field[0]?.toUpperCase() + field.slice(1)}
                            type="number"
                            value={box[field] == null ? "" : String(box[field])}
                            onChange={(v) => set(`${path}.${field}`, num(v))}
                            autoComplete="off"
                            suffix={field === "weight" ? (box.weight_unit ?? "oz") : (box.dimension_unit ?? "in")}
                            error={fieldError(problemsAt(at, `${path}.${field}`))}
                          />
                        ))}
                      </FormLayout.Group>
                    </FormLayout>
                    <FieldNotes problems={at.filter((p) => p.path === path)} />
                  </BlockStack>
                );
              })}
            </BlockStack>
          </Card>

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
            itemsValue={section.itemsValue}
          />

          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Label
              </Text>
              <FormLayout>
                <FormLayout.Group condensed>
                  <LockableSelect
                    locked={locked}
                    id={fieldId("label_format")}
                    label="Format"
                    options={[
                      { label: "PDF", value: "pdf" },
                      { label: "PNG", value: "png" },
                      { label: "ZPL (thermal printer)", value: "zpl" },
                    ]}
                    value={request.label_format ?? page.settings.labelFormat}
                    onChange={(v) => set("label_format", v)}
                  />
                  <LockableSelect
                    locked={locked}
                    id={fieldId("label_size")}
                    label="Size"
                    options={[
                      { label: "4 × 6 in", value: "4x6" },
                      { label: "4 × 8 in", value: "4x8" },
                    ]}
                    value={request.label_size ?? page.settings.labelSize}
                    onChange={(v) => set("label_size", v)}
                  />
                  <TextField
                    id={fieldId("ship_date")}
                    readOnly={locked}
                    label="Ship date"
                    type="date"
                    value={request.ship_date ?? ""}
                    onChange={(v) => set("ship_date", v || null)}
                    autoComplete="off"
                    helpText="Today when empty"
                    error={fieldError(problemsAt(allProblems, "ship_date"))}
                  />
                </FormLayout.Group>
              </FormLayout>
            </BlockStack>
          </Card>
        </BlockStack>
      </BlockStack>
    </BlockStack>
  );
}

function CustomsCard({
  request,
  problems,
  set,
  locked,
  saveToProduct,
}: {
  request: LabelRequestInput;
  problems: KnownPreflightProblem[];
  set: (path: string, value: unknown) => void;
  locked: boolean;
  /** Shown when the HS code or origin differs from the product's in Shopify. */
  saveToProduct: { productTitle: string; what: string; checked: boolean; onChange: (checked: boolean) => void } | null;
}) {
  const customs = request.customs ?? {};
  const text = (
    field: "description" | "hs_code" | "country_of_origin" | "tax_id" | "eel_pfc",
    label: string,
    help?: string,
  ) => {
    const at = problemsAt(problems, `customs.${field}`);
    const value = customs[field];
    return (
      <TextField
        id={fieldId(`customs.${field}`)}
        readOnly={locked}
        label={label}
        value={typeof value === "string" ? value : ""}
        onChange={(v) => set(`customs.${field}`, v || null)}
        autoComplete="off"
        error={fieldError(at)}
        helpText={
          <BlockStack gap="100">
            {help ? <span>{help}</span> : null}
            <FieldNotes problems={at} {...(locked ? {} : { onUseSuggestion: (s) => set(`customs.${field}`, s) })} />
          </BlockStack>
        }
      />
    );
  };
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Customs
        </Text>
        <FormLayout>
          {text("description", "Contents description", 'Say what the items are, e.g. "Ceramic coffee mugs"')}
          <FormLayout.Group condensed>
            <TextField
              id={fieldId("customs.value")}
              readOnly={locked}
              label="Declared value (USD)"
              type="number"
              value={customs.value == null ? "" : String(customs.value)}
              onChange={(v) => set("customs.value", num(v))}
              autoComplete="off"
              prefix="$"
              error={fieldError(problemsAt(problems, "customs.value"))}
            />
            {text("hs_code", "HS code")}
            {text("country_of_origin", "Country of origin")}
          </FormLayout.Group>
          {saveToProduct ? (
            <Checkbox
              id={fieldId("customs.save_to_product")}
              label={`Save to product: ${saveToProduct.productTitle}`}
              checked={saveToProduct.checked}
              onChange={saveToProduct.onChange}
              helpText={`Writes ${saveToProduct.what} to the product in Shopify when the draft is made, so its next orders are prefilled.`}
            />
          ) : null}
          <FormLayout.Group condensed>
            <LockableSelect
              locked={locked}
              id={fieldId("customs.contents_type")}
              label="Contents type"
              options={["merchandise", "documents", "gift", "returned_goods", "sample"].map((v) => ({
                // Sentence case, as the admin writes a choice: "Returned goods".
                label: `${v.charAt(0).toUpperCase()}${v.slice(1).replace("_", " ")}`,
                value: v,
              }))}
              value={customs.contents_type ?? "merchandise"}
              onChange={(v) => set("customs.contents_type", v)}
            />
            {text("tax_id", "Recipient tax id (CPF, codice fiscale…)")}
            {text("eel_pfc", "Export declaration (AES ITN or exemption)")}
          </FormLayout.Group>
        </FormLayout>
      </BlockStack>
    </Card>
  );
}

/**
 * A Select while the details can change; once drafted, the chosen option as a read-only text
 * field, legible like the others (a disabled select is greyed out and skipped by screen readers).
 */
function LockableSelect({
  locked,
  ...props
}: { locked: boolean } & Omit<ComponentProps<typeof Select>, "options"> & {
    options: { label: string; value: string }[];
  }) {
  if (!locked) return <Select {...props} />;
  const chosen = props.options.find((o) => o.value === props.value);
  return (
    <TextField
      {...(props.id ? { id: props.id } : {})}
      label={props.label}
      value={chosen?.label ?? ""}
      readOnly
      autoComplete="off"
      {...(props.helpText ? { helpText: props.helpText } : {})}
      {...(props.error ? { error: props.error } : {})}
    />
  );
}
