import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  InlineStack,
  Link,
  List,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";

import type { ReturnSection } from "~/routes/app.orders.$orderId.returns/order-returns.server";
import type { loader as returnsLoader } from "~/routes/app.orders.$orderId.returns/route";
import type { LabelSummary } from "~/routes/app.orders.$orderId/order-label-page.server";
import type { KnownPreflightProblem } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { describeService } from "~/shipping/services";
import { formatAmount, formatMinorUnits } from "~/utils/money";

import { LabelFileButtons } from "../shared/print-label-button";
import { ProblemSummary } from "./problem-list";
import { RateList } from "./rate-list";

// The order page's Returns section (ADR 23): each Shopify return of the order, with what the
// merchant can do for it here: approve a customer's request, then make its return label (rates,
// a confirmation naming the price, bought once), which Shopify holds on the return and can email
// to the customer. Loaded after the page, so the label form above never waits for it.

type ActionAnswer = {
  intent?: "approve" | "get-rates" | "buy";
  rates?: Rate[];
  label?: LabelSummary;
  writeBackError?: string | null;
  error?: { code: string; message: string; fields: string[] };
  problems?: KnownPreflightProblem[];
};

const STATUS_TONE: Record<string, "info" | "attention" | "success" | undefined> = {
  REQUESTED: "attention",
  OPEN: "info",
  CLOSED: "success",
};

export function OrderReturnsCard({ orderId }: { orderId: string }) {
  const url = `/app/orders/${orderId}/returns`;
  const fetcher = useFetcher<typeof returnsLoader>();
  const { load } = fetcher;
  // Loaded once; React Router loads it again after each of the section's actions (approve, buy).
  useEffect(() => {
    load(url);
  }, [load, url]);
  const data = fetcher.data;
  // Nothing to say while loading or when the order has no returns: the section takes no space.
  if (!data) return null;
  if (!data.view) {
    return (
      <Banner tone="warning" title="Returns did not load">
        <p>{data.problem}</p>
      </Banner>
    );
  }
  if (data.view.returns.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          Returns
        </Text>
        {data.view.returns.map((ret) => (
          <ReturnRow
            // A return approved since gets a fresh row: its prefilled weight, no stale rates.
            key={`${ret.id}:${ret.status ?? ""}`}
            url={url}
            ret={ret}
            locations={data.view.locations}
            notifyCustomer={data.view.notifyCustomer}
          />
        ))}
      </BlockStack>
    </Card>
  );
}

function ReturnRow({
  url,
  ret,
  locations,
  notifyCustomer,
}: {
  url: string;
  ret: ReturnSection;
  locations: readonly { id: string; name: string }[];
  notifyCustomer: boolean;
}) {
  const fetcher = useFetcher<ActionAnswer>();
  const [weight, setWeight] = useState(ret.prefill?.weight ? String(ret.prefill.weight) : "");
  const [rates, setRates] = useState<Rate[] | null>(null);
  const [chosen, setChosen] = useState<Rate | null>(null);
  const [notify, setNotify] = useState(notifyCustomer);
  const [locationId, setLocationId] = useState(ret.prefill?.returnLocationId ?? locations[0]?.id ?? "");
  const chosenLocation = locations.find((l) => l.id === locationId);
  const busy = fetcher.state !== "idle";
  const answer = fetcher.data;
  const intent = fetcher.formData?.get("intent");

  useEffect(() => {
    if (fetcher.state === "idle" && answer?.intent === "get-rates" && answer.rates) setRates(answer.rates);
  }, [fetcher.state, answer]);

  const submit = (fields: Record<string, string>) =>
    fetcher.submit({ returnId: ret.id, ...fields }, { method: "post", action: url });
  const label = ret.label ?? (answer?.intent === "buy" ? (answer.label ?? null) : null);
  const headingId = `return-${ret.id.replace(/\D/g, "")}`;

  return (
    <Box paddingBlockStart="200" borderBlockStartWidth="025" borderColor="border-secondary">
      <section aria-labelledby={headingId}>
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h3" variant="headingSm" id={headingId}>
              Return {ret.name}
            </Text>
            <Badge tone={ret.status ? STATUS_TONE[ret.status] : undefined}>{ret.statusText}</Badge>
          </InlineStack>
          <List>
            {ret.items.map((item) => (
              <List.Item key={item.title}>
                {item.quantity} × {item.title}
              </List.Item>
            ))}
          </List>
          {answer?.error ? (
            <Banner tone="critical" title={answer.error.message}>
              {answer.problems && answer.problems.length > 0 ? (
                <List>
                  {answer.problems.map((p) => (
                    <List.Item key={`${p.path}${p.code}`}>{p.message}</List.Item>
                  ))}
                </List>
              ) : null}
            </Banner>
          ) : null}
          {label ? (
            <ReturnLabel label={label} writeBackError={answer?.writeBackError ?? null} />
          ) : ret.shopifyLabel ? (
            <Text as="p" tone="subdued">
              This return already has a return label in Shopify
              {ret.shopifyLabel.trackingNumber ? ` (tracking ${ret.shopifyLabel.trackingNumber})` : ""}.
            </Text>
          ) : null}
          {ret.canApprove ? (
            <InlineStack gap="200" blockAlign="center">
              <Button onClick={() => submit({ intent: "approve" })} loading={busy && intent === "approve"}>
                Approve return
              </Button>
              <Text as="span" tone="subdued">
                Approve the customer&apos;s request in Shopify to make a return label for it.
              </Text>
            </InlineStack>
          ) : null}
          {ret.canCreateLabel && ret.prefill && !label ? (
            <BlockStack gap="300">
              <Text as="p">
                From{" "}
                <Text as="span" fontWeight="semibold">
                  {ret.prefill.from}
                </Text>{" "}
                back to{" "}
                <Text as="span" fontWeight="semibold">
                  {locationId === ret.prefill.returnLocationId
                    ? ret.prefill.to
                    : (chosenLocation?.name ?? ret.prefill.to)}
                </Text>
                {ret.prefill.international ? " — customs declare the items as returned goods." : "."}
              </Text>
              <ProblemSummary problems={ret.problems} />
              <InlineStack gap="200" blockAlign="end">
                {locations.length > 1 ? (
                  <Select
                    label="Send it back to"
                    options={locations.map((l) => ({ label: l.name, value: l.id }))}
                    value={locationId}
                    onChange={(value) => {
                      setLocationId(value);
                      setRates(null);
                      setChosen(null);
                    }}
                  />
                ) : null}
                {ret.prefill.boxes ? (
                  <Text as="p">
                    Packed in {ret.prefill.boxes.count} boxes, {ret.prefill.boxes.totalWeight} {ret.prefill.weightUnit}{" "}
                    in all.
                  </Text>
                ) : (
                  <Box maxWidth="12rem">
                    <TextField
                      label={`Parcel weight (${ret.prefill.weightUnit})`}
                      type="number"
                      min={0}
                      value={weight}
                      onChange={(value) => {
                        setWeight(value);
                        setRates(null);
                        setChosen(null);
                      }}
                      autoComplete="off"
                      error={answer?.error?.fields.includes("weight") ? answer.error.message : undefined}
                    />
                  </Box>
                )}
                <Button
                  onClick={() => submit({ intent: "get-rates", weight, returnLocationId: locationId })}
                  loading={busy && intent === "get-rates"}
                  disabled={busy}
                >
                  Get return rates
                </Button>
              </InlineStack>
              {rates && !chosen ? (
                rates.length === 0 ? (
                  <Text as="p" tone="subdued">
                    No carrier offered a rate for this return. Check the weight and the addresses.
                  </Text>
                ) : (
                  <RateList rates={rates} customerChose={null} busyRateId={null} disabled={busy} onChoose={setChosen} />
                )
              ) : null}
              {chosen ? (
                <Banner
                  tone="info"
                  title={`Buy this return label for ${formatAmount(chosen.amount, chosen.currency)}?`}
                >
                  <BlockStack gap="200">
                    <p>
                      {describeService({ carrier: chosen.carrier, service: chosen.service })}. It is charged to your
                      shipping balance now and added to return {ret.name} in Shopify.
                    </p>
                    <Checkbox
                      label="Have Shopify email the label to the customer"
                      checked={notify}
                      onChange={setNotify}
                    />
                    <InlineStack gap="200">
                      <Button
                        variant="primary"
                        loading={busy && intent === "buy"}
                        onClick={() =>
                          submit({
                            intent: "buy",
                            weight,
                            rate: JSON.stringify(chosen),
                            returnLocationId: locationId,
                            notifyCustomer: String(notify),
                          })
                        }
                      >
                        {`Buy return label for ${formatAmount(chosen.amount, chosen.currency)}`}
                      </Button>
                      <Button onClick={() => setChosen(null)} disabled={busy}>
                        Choose another rate
                      </Button>
                    </InlineStack>
                  </BlockStack>
                </Banner>
              ) : null}
            </BlockStack>
          ) : null}
        </BlockStack>
      </section>
    </Box>
  );
}

function ReturnLabel({ label, writeBackError }: { label: LabelSummary; writeBackError: string | null }) {
  const [fileError, setFileError] = useState<string | null>(null);
  const [tracking] = label.trackingNumbers;
  const voided = label.status === "voided" || label.status === "void_pending";
  return (
    <BlockStack gap="200">
      <InlineStack gap="200" blockAlign="center">
        <Text as="p" fontWeight="semibold">
          Return label: {describeService({ carrier: label.carrier, service: label.serviceName ?? label.serviceCode })}
        </Text>
        {voided ? <Badge tone="warning">{label.status === "voided" ? "Voided" : "Refund pending"}</Badge> : null}
        {label.status === "fulfilled" ? <Badge tone="success">Attached to the return in Shopify</Badge> : null}
      </InlineStack>
      <Text as="p">
        {label.chargedCents !== null ? `Charged ${formatMinorUnits(label.chargedCents, label.currency)}. ` : ""}
        {tracking ? (
          <>
            Tracking{" "}
            {tracking.url ? (
              <Link url={tracking.url} target="_blank">
                {tracking.number}
              </Link>
            ) : (
              tracking.number
            )}
            .
          </>
        ) : null}
      </Text>
      {voided ? (
        // Shopify has no way to take a label off a return (ADR 23): the customer may still see it.
        <Text as="p" tone="subdued">
          Shopify keeps a voided label on the return. Tell the customer not to use it.
        </Text>
      ) : null}
      {label.attention ? (
        <Banner tone="warning">
          <p>{label.attention}</p>
        </Banner>
      ) : null}
      {writeBackError || label.writeBack.status === "failed" || label.writeBack.status === "pending" ? (
        <Banner tone="warning" title="The label is bought, but it is not on the return in Shopify yet">
          <p>{writeBackError ?? label.writeBack.lastError ?? "The app tries again shortly."}</p>
        </Banner>
      ) : null}
      {label.labelUrl && !voided ? <LabelFileButtons label={label} variant="primary" onError={setFileError} /> : null}
      {fileError ? (
        <Banner tone="critical" onDismiss={() => setFileError(null)}>
          <p>{fileError}</p>
        </Banner>
      ) : null}
    </BlockStack>
  );
}
