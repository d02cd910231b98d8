import type { IndexTableProps } from "@shopify/polaris";
import { Badge, BlockStack, Button, IndexTable, InlineStack, Link, Text, Tooltip } from "@shopify/polaris";
import type { ReactNode } from "react";

import { BOUGHT_WHILE_HELD_TITLE } from "~/labels/label-state";
import type { LabelListItem } from "~/routes/app.labels/label-list.server";
import { describeService } from "~/shipping/services";
import { formatMinorUnits } from "~/utils/money";

import { formatDateTime } from "../shared/format-date-time";
import { ParcelStatuses } from "../shared/parcel-statuses";
import { usePhoneLayout } from "../shared/phone-layout";
import { LabelFileButtons } from "../shared/print-label-button";

type Tone = "success" | "info" | "attention" | "warning" | "critical" | undefined;

const STATUS: Record<LabelListItem["status"], { label: string; tone: Tone }> = {
  creating: { label: "Creating", tone: "info" },
  draft: { label: "Draft", tone: undefined },
  purchasing: { label: "Buying", tone: "attention" },
  purchased: { label: "Bought", tone: "success" },
  fulfilled: { label: "Fulfilled", tone: "success" },
  failed: { label: "Failed", tone: "critical" },
  void_pending: { label: "Refund pending", tone: "attention" },
  // A discarded draft, or a bought label voided and refunded (shown "Refunded", see statusOf).
  voided: { label: "Discarded", tone: undefined },
};

/**
 * The row's badge: a voided label that was bought reads "Refunded", a discarded draft "Discarded".
 * A return label reads as a return (ADR 23): it fulfils nothing, Shopify holds it on the return.
 */
export function statusOf(item: Pick<LabelListItem, "status" | "kind" | "refund">): { label: string; tone: Tone } {
  if (item.status === "voided" && item.refund?.status === "refunded") return { label: "Refunded", tone: "success" };
  if (item.refund?.status === "requesting" && (item.status === "purchased" || item.status === "fulfilled")) {
    return { label: "Voiding…", tone: "attention" };
  }
  if (item.kind === "return" && item.status === "purchased") return { label: "Return label", tone: "success" };
  if (item.kind === "return" && item.status === "fulfilled") return { label: "Attached to return", tone: "success" };
  return STATUS[item.status];
}

const WRITE_BACK: Record<LabelListItem["writeBack"]["status"], { label: string; tone: Tone }> = {
  none: { label: "Not yet", tone: undefined },
  pending: { label: "Waiting", tone: "attention" },
  writing: { label: "Sending", tone: "info" },
  done: { label: "In Shopify", tone: "success" },
  failed: { label: "Not sent", tone: "critical" },
};

/** The states as the filter names them: "voided" holds refunded labels and discarded drafts alike. */
export const LABEL_STATUS_NAMES = {
  ...(Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [k, v.label])) as Record<
    LabelListItem["status"],
    string
  >),
  voided: "Refunded or discarded",
};

/** Links and buttons in a selectable row act themselves instead of toggling the row's selection. */
function OwnClick({ children }: { children: ReactNode }) {
  // Not a control itself: it only keeps a click on the control inside from reaching the row.
  return <span onClick={(event) => event.stopPropagation()}>{children}</span>;
}

type Selection = {
  selected: readonly string[];
  allSelected: boolean;
  onSelectionChange: NonNullable<IndexTableProps["onSelectionChange"]>;
};

export function LabelsTable({
  items,
  loading,
  selection,
  onVoid,
  onFileError,
}: {
  items: LabelListItem[];
  loading: boolean;
  selection: Selection;
  /** "Void labels" on the selection, or "Void" on one row. */
  onVoid: (labelIds: string[]) => void;
  /** A label file that could not be printed or downloaded, in the server's words; null clears it. */
  onFileError: (message: string | null) => void;
}) {
  // Phone-sized: one stacked cell per label instead of eight columns past the screen's edge.
  const condensed = usePhoneLayout();
  return (
    <IndexTable
      condensed={condensed}
      resourceName={{ singular: "label", plural: "labels" }}
      itemCount={items.length}
      selectedItemsCount={selection.allSelected ? "All" : selection.selected.length}
      onSelectionChange={selection.onSelectionChange}
      promotedBulkActions={[{ content: "Void labels", onAction: () => onVoid([...selection.selected]) }]}
      loading={loading}
      headings={[
        { title: "Order" },
        { title: "Status" },
        { title: "Carrier and service" },
        { title: "Tracking" },
        { title: "Quoted", alignment: "end" },
        { title: "Charged", alignment: "end" },
        { title: "Tracking in Shopify" },
        { title: "Label file" },
      ]}
    >
      {items.map((item, index) => (
        <LabelRow
          key={item.id}
          item={item}
          index={index}
          condensed={condensed}
          selected={selection.selected.includes(item.id)}
          onVoid={() => onVoid([item.id])}
          onFileError={onFileError}
        />
      ))}
    </IndexTable>
  );
}

function LabelRow({
  item,
  index,
  selected,
  condensed,
  onVoid,
  onFileError,
}: {
  item: LabelListItem;
  index: number;
  selected: boolean;
  condensed: boolean;
  onVoid: () => void;
  onFileError: (message: string | null) => void;
}) {
  if (condensed) {
    // A phone: one stacked cell per label (Polaris's condensed list), what it is and where it
    // stands first, then its tracking, its money and what can be done with it.
    return (
      <IndexTable.Row id={item.id} position={index} selected={selected}>
        <div style={{ padding: "var(--p-space-300) var(--p-space-400)", width: "100%", minWidth: 0 }}>
          <BlockStack gap="150">
            <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
              <OrderCell item={item} />
              <StatusCell item={item} />
            </InlineStack>
            <Text as="span" variant="bodySm">
              {serviceOf(item)}
            </Text>
            <TrackingCell item={item} />
            <InlineStack gap="200" blockAlign="center" wrap>
              <Text as="span" variant="bodySm" tone="subdued">
                {`Quoted ${formatMinorUnits(item.quotedCents, item.currency)} · charged ${formatMinorUnits(item.chargedCents, item.currency)}`}
              </Text>
              {item.chargeMismatch ? <Badge tone="warning">Differs from quote</Badge> : null}
            </InlineStack>
            <InlineStack gap="200" blockAlign="center" wrap>
              <Text as="span" variant="bodySm" tone="subdued">
                Tracking in Shopify:
              </Text>
              <WriteBackCell item={item} />
            </InlineStack>
            <FileCell item={item} onVoid={onVoid} onFileError={onFileError} />
          </BlockStack>
        </div>
      </IndexTable.Row>
    );
  }
  return (
    <IndexTable.Row id={item.id} position={index} selected={selected}>
      <IndexTable.Cell>
        <OrderCell item={item} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <StatusCell item={item} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Wrapping>{serviceOf(item)}</Wrapping>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <TrackingCell item={item} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" alignment="end" numeric>
          {formatMinorUnits(item.quotedCents, item.currency)}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <BlockStack gap="100" inlineAlign="end">
          <Text as="span" alignment="end" numeric>
            {formatMinorUnits(item.chargedCents, item.currency)}
          </Text>
          {item.chargeMismatch ? <Badge tone="warning">Differs from quote</Badge> : null}
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <WriteBackCell item={item} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <FileCell item={item} onVoid={onVoid} onFileError={onFileError} />
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}

/** The carrier written once, as the order page's rates name it ("UPS Ground", not "UPS · UPS Ground"). */
const serviceOf = (item: LabelListItem) =>
  item.carrier ? describeService({ carrier: item.carrier, service: item.serviceName }) : "—";

const isVoided = (item: LabelListItem) => item.status === "void_pending" || item.status === "voided";

/** Long words (errors, several tracking numbers) wrap inside their column instead of widening the table. */
function Wrapping({ children }: { children: ReactNode }) {
  return <div style={{ whiteSpace: "normal", overflowWrap: "anywhere", maxWidth: "16rem" }}>{children}</div>;
}

function OrderCell({ item }: { item: LabelListItem }) {
  return (
    <BlockStack gap="050" inlineAlign="start">
      {item.orderNumericId ? (
        // Polaris renders it as a React Router Link: in-app navigation that keeps the embedded admin's context.
        <OwnClick>
          <Link url={`/app/orders/${item.orderNumericId}`} removeUnderline>
            <Text as="span" fontWeight="semibold">
              {item.orderName}
            </Text>
          </Link>
        </OwnClick>
      ) : (
        <Text as="span" fontWeight="semibold">
          {item.orderName}
        </Text>
      )}
      {item.kind === "return" ? <Badge size="small">Return</Badge> : null}
      <Text as="span" tone="subdued" variant="bodySm">
        {formatDateTime(item.createdAt)}
      </Text>
      {item.boughtOutside ? <Badge>Bought outside the app</Badge> : null}
    </BlockStack>
  );
}

function StatusCell({ item }: { item: LabelListItem }) {
  const status = statusOf(item);
  return (
    <BlockStack gap="100" inlineAlign="start">
      {item.lastError && item.status === "failed" ? (
        <Tooltip content={item.lastError}>
          <Badge tone={status.tone}>{status.label}</Badge>
        </Tooltip>
      ) : (
        <Badge tone={status.tone}>{status.label}</Badge>
      )}
      {item.refund?.status === "rejected" && !isVoided(item) ? (
        <Badge tone="warning">Void refused: the parcel was scanned</Badge>
      ) : null}
      {item.boughtWhileHeld ? <Badge tone="critical">{BOUGHT_WHILE_HELD_TITLE}</Badge> : null}
    </BlockStack>
  );
}

function TrackingCell({ item }: { item: LabelListItem }) {
  if (item.trackingNumbers.length === 0 && item.parcels.length === 0) return <Text as="span">—</Text>;
  return (
    <BlockStack gap="050" inlineAlign="start">
      <Wrapping>
        {item.trackingNumbers.length === 0 ? (
          "—"
        ) : item.trackingUrl ? (
          // The carrier's tracking page is outside the app: a new tab, not in-app navigation.
          <OwnClick>
            <Link url={item.trackingUrl} target="_blank">
              {item.trackingNumbers.join(", ")}
            </Link>
          </OwnClick>
        ) : (
          item.trackingNumbers.join(", ")
        )}
      </Wrapping>
      <ParcelStatuses parcels={item.parcels} />
    </BlockStack>
  );
}

function WriteBackCell({ item }: { item: LabelListItem }) {
  const voided = isVoided(item);
  const writeBack = WRITE_BACK[item.writeBack.status];
  return (
    <BlockStack gap="050" inlineAlign="start">
      {voided && item.refund?.shopify === "cancelled" ? (
        // Its tracking left Shopify with the cancelled fulfillment: "Not yet" would promise it.
        <Badge>Fulfillment cancelled</Badge>
      ) : voided && item.refund?.shopify === "cancel_pending" ? (
        <Badge tone="attention">Cancelling fulfillment</Badge>
      ) : voided && item.refund?.shopify === "cancel_failed" ? (
        // Shopify refused: asking again would be refused again, so the merchant must cancel it.
        <Badge tone="critical">Cancel the fulfillment in Shopify</Badge>
      ) : voided && item.kind === "return" ? (
        // Shopify has no way to take a label off a return (ADR 23).
        <Badge>Still on the return in Shopify</Badge>
      ) : voided ? (
        <Text as="span" tone="subdued">
          —
        </Text>
      ) : item.boughtWhileHeld && item.writeBack.status === "failed" ? (
        // Not a refusal to look into: Shopify takes no tracking while it holds the shipment.
        <Badge tone="attention">Waits for Shopify's hold</Badge>
      ) : (
        <Badge tone={writeBack.tone}>{writeBack.label}</Badge>
      )}
      {item.writeBack.status === "failed" && item.writeBack.lastError && !item.boughtWhileHeld ? (
        <Wrapping>
          <Text as="span" tone="critical" variant="bodySm">
            {item.writeBack.lastError}
          </Text>
        </Wrapping>
      ) : null}
    </BlockStack>
  );
}

function FileCell({
  item,
  onVoid,
  onFileError,
}: {
  item: LabelListItem;
  onVoid: () => void;
  onFileError: (message: string | null) => void;
}) {
  return (
    <BlockStack gap="100" inlineAlign="start">
      {isVoided(item) && item.labelUrl ? (
        // A voided label must not ship: no download offered.
        <Text as="span" tone="subdued">
          Voided
        </Text>
      ) : item.labelUrl ? (
        <OwnClick>
          <LabelFileButtons label={item} variant="plain" onError={onFileError} />
        </OwnClick>
      ) : (
        <Text as="span" tone="subdued">
          {item.status === "voided" ? "Discarded" : "Not bought yet"}
        </Text>
      )}
      {item.voidBlocker === null ? (
        <OwnClick>
          <Button
            variant="plain"
            tone="critical"
            onClick={onVoid}
            accessibilityLabel={`Void label of ${item.orderName}`}
          >
            Void label
          </Button>
        </OwnClick>
      ) : null}
    </BlockStack>
  );
}

// Inline, so empty states also render in the offline demo (no CDN).
const BOX_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="226" height="160" viewBox="0 0 226 160"><g fill="none" stroke="#8a8a8a" stroke-width="4" stroke-linejoin="round"><path d="M63 50l50-25 50 25v60l-50 25-50-25z"/><path d="M63 50l50 25 50-25M113 75v60"/></g></svg>';
export const EMPTY_STATE_IMAGE = `data:image/svg+xml,${encodeURIComponent(BOX_SVG)}`;
