import { Badge, BlockStack, Box, Button, DataTable, InlineStack, Text } from "@shopify/polaris";

import type { BulkItemStatus } from "~/bulk/bulk-runs.server";
import type { BulkRunItemView } from "~/routes/app.bulk.$runId/bulk-run-view.server";
import { describeLabelOptions } from "~/shipments/label-options";
import { formatMinorUnits } from "~/utils/money";

import { ByWidth } from "../shared/by-width";
import { describeShipment, STATUS_TEXT } from "./bulk-run-text";

// One row per shipment of the run: its order (and which shipment, when an order has several),
// where it stands, what it costs, and why it is not bought when it is not.

const STATUS_TONE: Partial<Record<BulkItemStatus, "success" | "critical" | "warning" | "attention" | "info">> = {
  blocked: "warning",
  bought: "success",
  failed: "critical",
  not_fulfillable: "warning",
  buying: "info",
  ready: "info",
};

function describeItem(item: BulkRunItemView): string {
  if (item.problems.length > 0) return item.problems.map((p) => p.message).join(" ");
  return item.message ?? "";
}

function orderLink(item: BulkRunItemView) {
  const id = item.orderGid.split("/").pop() ?? "";
  const link = (
    <Button variant="plain" url={`/app/orders/${id}`} accessibilityLabel={describeShipment(item)}>
      {item.orderName}
    </Button>
  );
  if (!item.shipment) return link;
  // Aligned to the start: a stretched plain button centres its text, pushing the order's name
  // right of the "Shipment 1 of 2" line under it.
  return (
    <BlockStack gap="050" inlineAlign="start">
      {link}
      <Text as="span" variant="bodySm" tone="subdued">
        {`Shipment ${item.shipment.index} of ${item.shipment.of}`}
      </Text>
    </BlockStack>
  );
}

/** Long reasons wrap in their column instead of pushing the table into a sideways scroll. */
function details(item: BulkRunItemView) {
  const text = describeItem(item);
  return text ? <div style={{ whiteSpace: "normal", minWidth: "16rem", maxWidth: "28rem" }}>{text}</div> : "";
}

/** The service, and under it the options its price includes (insurance, signature, batteries). */
function serviceCell(item: BulkRunItemView) {
  const options = describeLabelOptions(item.options);
  if (options.length === 0) return item.service ?? "—";
  return (
    <BlockStack gap="050">
      <span>{item.service ?? "—"}</span>
      <Text as="span" variant="bodySm" tone="subdued">
        {options.join(" · ")}
      </Text>
    </BlockStack>
  );
}

/** A bought item whose label was voided reads as its refund (ADR 22). */
function badgeOf(item: BulkRunItemView): {
  text: string;
  tone?: "success" | "critical" | "warning" | "attention" | "info";
} {
  if (item.retryingBecause) return { text: "Waiting to retry", tone: "attention" };
  if (item.status === "bought" && item.refund) {
    switch (item.refund.status) {
      case "requesting":
      case "pending":
        return { text: "Refund pending", tone: "attention" };
      case "refunded":
        return { text: "Refunded" };
      case "rejected":
        return { text: "Void refused: the parcel was scanned", tone: "warning" };
    }
  }
  const tone = STATUS_TONE[item.status];
  return { text: STATUS_TEXT[item.status], ...(tone ? { tone } : {}) };
}

function ItemBadge({ item }: { item: BulkRunItemView }) {
  const { text, tone } = badgeOf(item);
  return <Badge {...(tone ? { tone } : {})}>{text}</Badge>;
}

const priceOf = (item: BulkRunItemView) => (item.quotedCents === null ? "—" : formatMinorUnits(item.quotedCents));

/**
 * A phone: one stacked entry per shipment, as the Orders list's condensed rows. The table's six
 * columns were wider than the screen, its Details column off the edge behind Polaris's column
 * arrows, so a blocked shipment's reason could not be read without paging sideways.
 */
function BulkRunItemList({ items }: { items: BulkRunItemView[] }) {
  return (
    <BlockStack as="ul" gap="0">
      {items.map((item) => {
        const text = describeItem(item);
        return (
          <Box
            as="li"
            key={item.id}
            paddingBlock="300"
            paddingInline="400"
            borderBlockEndWidth="025"
            borderColor="border-secondary"
          >
            <BlockStack gap="150">
              <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
                {orderLink(item)}
                <ItemBadge item={item} />
              </InlineStack>
              {/* A shipment left out has neither: its reason below says why, without a line of dashes. */}
              {item.service || item.quotedCents !== null ? (
                <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
                  <div style={{ minWidth: 0 }}>{serviceCell(item)}</div>
                  <Text as="span" fontWeight="semibold" numeric>
                    {priceOf(item)}
                  </Text>
                </InlineStack>
              ) : null}
              {item.boxes ? (
                <Text as="span" variant="bodySm" tone="subdued">
                  {`${item.boxes} ${item.boxes === 1 ? "box" : "boxes"}`}
                </Text>
              ) : null}
              {text ? <Text as="p">{text}</Text> : null}
            </BlockStack>
          </Box>
        );
      })}
    </BlockStack>
  );
}

export function BulkRunItems({ items }: { items: BulkRunItemView[] }) {
  return <ByWidth phone={<BulkRunItemList items={items} />} wide={<BulkRunItemTable items={items} />} />;
}

function BulkRunItemTable({ items }: { items: BulkRunItemView[] }) {
  return (
    <DataTable
      columnContentTypes={["text", "text", "text", "numeric", "numeric", "text"]}
      headings={["Order", "Status", "Service", "Boxes", "Price", "Details"]}
      rows={items.map((item) => [
        orderLink(item),
        <ItemBadge key="s" item={item} />,
        serviceCell(item),
        item.boxes ?? "—",
        priceOf(item),
        details(item),
      ])}
    />
  );
}
