import { Link as RemixLink } from "@remix-run/react";
import { Badge, BlockStack, IndexTable, InlineStack, Text, Tooltip } from "@shopify/polaris";

import type { LabelListItem } from "~/screens/label-list.server";
import { formatMinorUnits } from "~/utils/money";

import { formatDateTime } from "./format-date-time";
import { ParcelStatuses } from "./parcel-statuses";

type Tone = "success" | "info" | "attention" | "warning" | "critical" | undefined;

const STATUS: Record<LabelListItem["status"], { label: string; tone: Tone }> = {
  creating: { label: "Creating", tone: "info" },
  draft: { label: "Draft", tone: undefined },
  purchasing: { label: "Buying", tone: "attention" },
  purchased: { label: "Bought", tone: "success" },
  fulfilled: { label: "Fulfilled", tone: "success" },
  failed: { label: "Failed", tone: "critical" },
  void_pending: { label: "Refund pending", tone: "attention" },
  voided: { label: "Discarded", tone: undefined },
};

const WRITE_BACK: Record<LabelListItem["writeBack"]["status"], { label: string; tone: Tone }> = {
  none: { label: "Not yet", tone: undefined },
  pending: { label: "Waiting", tone: "attention" },
  writing: { label: "Writing", tone: "info" },
  done: { label: "In Shopify", tone: "success" },
  failed: { label: "Failed", tone: "critical" },
};

export const LABEL_STATUS_NAMES = Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [k, v.label])) as Record<
  LabelListItem["status"],
  string
>;

export function LabelsTable({ items, loading }: { items: LabelListItem[]; loading: boolean }) {
  return (
    <IndexTable
      resourceName={{ singular: "label", plural: "labels" }}
      itemCount={items.length}
      selectable={false}
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
        <LabelRow key={item.id} item={item} index={index} />
      ))}
    </IndexTable>
  );
}

function LabelRow({ item, index }: { item: LabelListItem; index: number }) {
  const status = STATUS[item.status];
  const writeBack = WRITE_BACK[item.writeBack.status];
  return (
    <IndexTable.Row id={item.id} position={index}>
      <IndexTable.Cell>
        <BlockStack gap="050">
          {item.orderNumericId ? (
            // Remix Link: in-app navigation that keeps the embedded admin's context.
            <RemixLink to={`/app/orders/${item.orderNumericId}`}>{item.orderName}</RemixLink>
          ) : (
            <Text as="span">{item.orderName}</Text>
          )}
          <Text as="span" tone="subdued" variant="bodySm">
            {formatDateTime(item.createdAt)}
          </Text>
          {item.boughtOutside ? <Badge>Bought outside the app</Badge> : null}
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {item.lastError && item.status === "failed" ? (
          <Tooltip content={item.lastError}>
            <Badge tone={status.tone}>{status.label}</Badge>
          </Tooltip>
        ) : (
          <Badge tone={status.tone}>{status.label}</Badge>
        )}
      </IndexTable.Cell>
      <IndexTable.Cell>
        {item.carrier ? `${item.carrier} · ${item.serviceName ?? "service not recorded"}` : "—"}
      </IndexTable.Cell>
      <IndexTable.Cell>
        <BlockStack gap="050" inlineAlign="start">
          {item.trackingNumbers.length === 0 ? (
            "—"
          ) : item.trackingUrl ? (
            // The carrier's tracking page is outside the app: a new tab, not in-app navigation.
            <a href={item.trackingUrl} target="_blank" rel="noopener noreferrer">
              {item.trackingNumbers.join(", ")}
            </a>
          ) : (
            item.trackingNumbers.join(", ")
          )}
          <ParcelStatuses parcels={item.parcels} />
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" alignment="end" numeric>
          {formatMinorUnits(item.quotedCents, item.currency)}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <InlineStack gap="100" align="end" blockAlign="center" wrap={false}>
          {item.chargeMismatch ? <Badge tone="warning">Differs from quote</Badge> : null}
          <Text as="span" alignment="end" numeric>
            {formatMinorUnits(item.chargedCents, item.currency)}
          </Text>
        </InlineStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <BlockStack gap="050" inlineAlign="start">
          <Badge tone={writeBack.tone}>{writeBack.label}</Badge>
          {item.writeBack.status === "failed" && item.writeBack.lastError ? (
            <Text as="span" tone="critical" variant="bodySm">
              {item.writeBack.lastError}
            </Text>
          ) : null}
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {item.labelUrl ? (
          // The label file is served by the shipping service, not by this app: a plain download
          // link is right here (a Remix Link would try to route it inside the app).
          <a href={item.labelUrl} download target="_blank" rel="noopener noreferrer">
            Download {item.labelFormat ? item.labelFormat.toUpperCase() : "label"}
          </a>
        ) : (
          <Text as="span" tone="subdued">
            Not bought yet
          </Text>
        )}
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}

// Inline, so empty states also render in the offline demo (no CDN).
const BOX_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="226" height="160" viewBox="0 0 226 160"><g fill="none" stroke="#8a8a8a" stroke-width="4" stroke-linejoin="round"><path d="M63 50l50-25 50 25v60l-50 25-50-25z"/><path d="M63 50l50 25 50-25M113 75v60"/></g></svg>';
export const EMPTY_STATE_IMAGE = `data:image/svg+xml,${encodeURIComponent(BOX_SVG)}`;
