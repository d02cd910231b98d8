import { Banner, BlockStack, Button, Card, InlineStack, Modal, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";

import type { LabelSummary } from "~/routes/app.orders.$orderId/order-label-page.server";
import { describeService } from "~/shipping/services";
import { formatMinorUnits } from "~/utils/money";

import { usePolling } from "../shared/use-polling";

// Voiding a bought label from the order page (ADR 22): a confirmation that names the refund, then
// the refund's state as the carrier decides it. The label leaves the shipment at once (its
// Shopify fulfillment is cancelled), so the page offers a replacement label right away.

// The carrier decides within minutes; the page shows it without a reload.
const VOID_POLL_MS = 5_000;

const refundOf = (label: LabelSummary) =>
  formatMinorUnits(label.void?.refundCents ?? label.chargedCents ?? label.quotedCents, label.currency);

export function VoidLabelButton({ label }: { label: LabelSummary }) {
  const fetcher = useFetcher<{ error?: { message: string } }>();
  const [open, setOpen] = useState(false);
  const busy = fetcher.state !== "idle";
  const error = fetcher.data?.error?.message ?? null;
  // Closed once the answer arrives; a refusal is said next to the button.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) setOpen(false);
  }, [fetcher.state, fetcher.data]);
  const amount = refundOf(label);
  return (
    <BlockStack gap="200">
      <InlineStack>
        <Button tone="critical" variant="plain" onClick={() => setOpen(true)}>
          Void label
        </Button>
      </InlineStack>
      {error ? (
        <Banner tone="critical" title="The label was not voided">
          <p>{error}</p>
        </Banner>
      ) : null}
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Void this label?"
        primaryAction={{
          content: `Void label and refund ${amount}`,
          destructive: true,
          loading: busy,
          onAction: () => fetcher.submit({ intent: "void", labelId: label.id }, { method: "post" }),
        }}
        secondaryActions={[{ content: "Keep the label", onAction: () => setOpen(false) }]}
      >
        <Modal.Section>
          <BlockStack gap="200">
            <p>
              {amount} goes back to your shipping balance once the carrier confirms the void, usually within minutes.
              Don&apos;t use this label to ship.
            </p>
            <p>
              The fulfillment in Shopify is cancelled now, so you can create a replacement label right away. If the
              carrier scans the parcel before it confirms, the void is refused and the tracking goes back to Shopify.
            </p>
          </BlockStack>
        </Modal.Section>
      </Modal>
    </BlockStack>
  );
}

/** A refused void on a label that is bought again. */
export function VoidRefusedBanner({ label }: { label: LabelSummary }) {
  if (label.void?.status !== "rejected") return null;
  return (
    <Banner tone="warning" title="Void refused: the parcel was scanned">
      <p>
        The carrier scanned this parcel before confirming the void, so nothing was refunded and the label stays bought.
        Its tracking is on the order&apos;s fulfillment in Shopify again.
      </p>
    </Banner>
  );
}

/** What a voided label left in Shopify, when the merchant has to act on it. */
function VoidedInShopify({ label }: { label: LabelSummary }) {
  if (label.kind === "return") {
    // Shopify has no way to take a label off a return (ADR 23).
    return (
      <Text as="p" tone="caution">
        Shopify keeps this label on the return. Tell the customer not to use it.
      </Text>
    );
  }
  if (label.void?.shopify !== "cancel_failed") return null;
  return (
    <Text as="p" tone="critical">
      Shopify refused to cancel its fulfillment, so the order still shows this tracking number. Cancel the fulfillment
      in Shopify before you ship a replacement.
    </Text>
  );
}

const VOID_TITLE = {
  requesting: "Voiding…",
  pending: "Refund pending",
  refunded: "Refunded",
  rejected: "Void refused",
};

/** The order's voided labels and where each refund stands; followed while a refund is pending. */
export function VoidedLabelsCard({ labels }: { labels: readonly LabelSummary[] }) {
  const voided = labels.filter((l) => l.void && l.void.status !== "rejected");
  usePolling(
    voided.some((l) => l.void?.status === "pending" || l.void?.status === "requesting"),
    VOID_POLL_MS,
  );
  if (voided.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Voided labels
        </Text>
        {voided.map((label) => {
          return (
            <InlineStack key={label.id} align="space-between" blockAlign="center" gap="200">
              <BlockStack gap="050">
                <Text as="p" fontWeight="semibold">
                  {label.kind === "return" ? "Return label: " : ""}
                  {describeService({ carrier: label.carrier, service: label.serviceName ?? label.serviceCode })}
                </Text>
                <Text as="p" tone="subdued">
                  {label.trackingNumbers.map((t) => t.number).join(", ")}
                </Text>
                <VoidedInShopify label={label} />
              </BlockStack>
              <Text as="p" tone={label.void?.status === "refunded" ? "success" : undefined} fontWeight="semibold">
                {label.void?.status === "refunded"
                  ? `Refunded ${refundOf(label)}`
                  : label.void?.status === "pending"
                    ? `Refund pending: ${refundOf(label)}`
                    : VOID_TITLE[label.void?.status ?? "requesting"]}
              </Text>
            </InlineStack>
          );
        })}
      </BlockStack>
    </Card>
  );
}
