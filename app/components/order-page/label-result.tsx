import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Link, List, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";

import { BOUGHT_WHILE_HELD_TITLE, VOID_SUGGESTED_ATTENTIONS } from "~/labels/label-state";
import type { LabelSummary } from "~/routes/app.orders.$orderId/order-label-page.server";
import { describeService } from "~/shipping/services";
import { formatMinorUnits } from "~/utils/money";

import { ParcelStatuses } from "../shared/parcel-statuses";
import { LabelFileButtons } from "../shared/print-label-button";
import { VoidLabelButton, VoidRefusedBanner } from "./label-void";

// A bought label: its file (PDF inline, PNG as an image, ZPL as a download), Print and Download
// (components/shared/print-label-button.tsx), the tracking numbers, what happened to the write-back to Shopify, and a charge that differed.

function WriteBackState({ label, notifyCustomer }: { label: LabelSummary; notifyCustomer: boolean }) {
  const retry = useFetcher<{ writeBackError?: string | null; error?: { message: string } }>();
  const busy = retry.state !== "idle";
  const status = label.status === "fulfilled" ? "done" : label.writeBack.status;
  if (status === "done") {
    return (
      <Banner tone="success" title="Tracking added to the fulfillment in Shopify">
        <p>{notifyCustomer ? "The customer was notified with the tracking link." : "The customer was not notified."}</p>
      </Banner>
    );
  }
  const failed = status === "failed";
  // Held in Shopify: the banner above says why and offers the void; this one says what waits.
  const held = failed && label.attentionReason === "bought_while_held";
  const answerError = retry.data?.error?.message ?? retry.data?.writeBackError ?? null;
  return (
    <Banner
      tone={held ? "warning" : failed ? "critical" : "warning"}
      title={
        held
          ? "Tracking waits for Shopify to release the hold"
          : failed
            ? "Tracking did not reach Shopify"
            : "Tracking is on its way to Shopify"
      }
    >
      <BlockStack gap="200">
        <p>
          {held
            ? "Shopify takes no tracking for a shipment it holds. Once the hold is released the app sends it on its own, or you can send it then."
            : failed
              ? `Shopify refused the fulfillment${label.writeBack.lastError ? ` (${label.writeBack.lastError})` : ""}. Check the order in Shopify, then send the tracking again.`
              : "The label is bought, but its tracking is not in Shopify yet. The app keeps trying on its own, or you can send it now."}
        </p>
        {answerError ? <p>{answerError}</p> : null}
        <retry.Form method="post">
          <input type="hidden" name="intent" value="retry-write-back" />
          <input type="hidden" name="labelId" value={label.id} />
          <input type="hidden" name="notifyCustomer" value={String(notifyCustomer)} />
          <Button submit loading={busy} disabled={busy}>
            Send tracking to Shopify
          </Button>
        </retry.Form>
      </BlockStack>
    </Banner>
  );
}

// Dismissed only by the merchant, once they voided the label with the carrier or shipped it anyway.
// A label charged for a shipment Shopify will not let go out (held or cancelled in the instant of
// the purchase, or cancelled since) is offered its void in one click, the button naming the refund.
function AttentionBanner({ label, message }: { label: LabelSummary; message: string }) {
  const dismiss = useFetcher();
  const voiding = useFetcher<{ error?: { message: string } }>();
  const reason = label.attentionReason;
  const voidable =
    reason !== null &&
    VOID_SUGGESTED_ATTENTIONS.includes(reason) &&
    (label.status === "purchased" || label.status === "fulfilled") &&
    (label.void === null || label.void.status === "rejected");
  const refund = formatMinorUnits(label.chargedCents ?? label.quotedCents, label.currency);
  const voidError = voiding.data?.error?.message ?? null;
  return (
    <Banner
      tone="critical"
      title={reason === "bought_while_held" ? BOUGHT_WHILE_HELD_TITLE : "The order changed after this label was bought"}
      action={
        voidable
          ? {
              content: `Void label: refund ${refund} to your shipping balance`,
              loading: voiding.state !== "idle",
              onAction: () => voiding.submit({ intent: "void", labelId: label.id }, { method: "post" }),
            }
          : undefined
      }
      secondaryAction={{
        content: "I've dealt with it",
        onAction: () => dismiss.submit({ intent: "dismiss-attention", labelId: label.id }, { method: "post" }),
      }}
    >
      <BlockStack gap="100">
        <p>{message}</p>
        {voidable ? (
          <p>
            {`${refund} goes back to your shipping balance once the carrier confirms the void (the shipping service allows it within 30 days of purchase, before the parcel is scanned), usually within minutes.`}
          </p>
        ) : null}
        {voidError ? <p>{`The label was not voided: ${voidError}`}</p> : null}
      </BlockStack>
    </Banner>
  );
}

export function LabelResult({
  label,
  notifyCustomer,
  withPackingSlip = false,
  focusPrint = false,
}: {
  label: LabelSummary;
  notifyCustomer: boolean;
  /** The shop prints packing slips: the printed and downloaded PDF carries the slip after the label. */
  withPackingSlip?: boolean;
  /** Bought on this page just now: focus goes to Print, the next step, not to the page's body. */
  focusPrint?: boolean;
}) {
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const printButtonId = `print-label-${label.id}`;
  useEffect(() => {
    if (focusPrint) document.getElementById(printButtonId)?.focus();
  }, [focusPrint, printButtonId]);
  const format = (label.labelFormat ?? "pdf").toLowerCase();
  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              Label bought:{" "}
              {describeService({ carrier: label.carrier, service: label.serviceName ?? label.serviceCode })}
            </Text>
            {label.boughtOutside ? <Badge>Bought outside the app</Badge> : null}
          </InlineStack>
          <Text as="span" variant="headingMd">
            {formatMinorUnits(label.chargedCents ?? label.quotedCents, label.currency)}
          </Text>
        </InlineStack>
        {label.options.length > 0 ? (
          <InlineStack gap="200">
            {label.options.map((option) => (
              <Badge key={option}>{option}</Badge>
            ))}
          </InlineStack>
        ) : null}
        {label.attention ? <AttentionBanner label={label} message={label.attention} /> : null}
        <VoidRefusedBanner label={label} />
        {label.chargeMismatch ? (
          <Banner tone="warning" title="The charge differed from the quote">
            <p>
              Quoted {formatMinorUnits(label.quotedCents, label.currency)}, charged{" "}
              {formatMinorUnits(label.chargedCents, label.currency)}. Carriers adjust prices for weight, size or
              surcharges; check the label details if this is unexpected.
            </p>
          </Banner>
        ) : null}
        {label.labelUrl ? (
          <Box>
            {format === "pdf" ? (
              <iframe
                src={label.labelUrl}
                title={`Shipping label for ${label.trackingNumbers[0]?.number ?? "this order"}`}
                style={{ width: "100%", height: 520, border: "1px solid #e3e3e3", borderRadius: 8 }}
              />
            ) : format === "png" ? (
              <img
                src={label.labelUrl}
                alt={`Shipping label ${label.trackingNumbers[0]?.number ?? ""}`}
                style={{ maxWidth: "100%", border: "1px solid #e3e3e3" }}
              />
            ) : (
              <Text as="p">ZPL labels print on a thermal printer: download the file and send it to the printer.</Text>
            )}
          </Box>
        ) : null}
        {label.labelUrl ? (
          <BlockStack gap="200">
            <LabelFileButtons
              label={label}
              variant="primary"
              withShortcut
              printButtonId={printButtonId}
              onError={setFileProblem}
            />
            {withPackingSlip && format !== "zpl" ? (
              <Text as="p" tone="subdued">
                Its packing slip prints with it, as Settings asks.
              </Text>
            ) : null}
          </BlockStack>
        ) : null}
        {fileProblem ? (
          <Banner tone="critical" onDismiss={() => setFileProblem(null)}>
            <p>{fileProblem}</p>
          </Banner>
        ) : null}
        <BlockStack gap="100">
          <Text as="h3" variant="headingSm">
            Tracking
          </Text>
          <List>
            {label.trackingNumbers.map((t) => {
              const parcel = label.parcels.filter((p) => p.trackingNumber === t.number);
              return (
                <List.Item key={t.number}>
                  <BlockStack gap="050">
                    {t.url ? (
                      <Link url={t.url} target="_blank">
                        {t.number}
                      </Link>
                    ) : (
                      t.number
                    )}
                    {parcel.length > 0 ? <ParcelStatuses parcels={parcel} /> : null}
                  </BlockStack>
                </List.Item>
              );
            })}
          </List>
        </BlockStack>
        <WriteBackState label={label} notifyCustomer={notifyCustomer} />
        {label.void?.status === "rejected" ? null : <VoidLabelButton label={label} />}
      </BlockStack>
    </Card>
  );
}
