import { Badge, BlockStack, InlineStack, Text } from "@shopify/polaris";

import { TRACKING_STATUS_TEXT } from "~/labels/label-state";
import type { ParcelStatusView } from "~/labels/parcel-tracking.server";

import { formatDateTime } from "./format-date-time";

/** The latest status of each parcel; the box's number is named only when there are several. */
export function ParcelStatuses({ parcels }: { parcels: readonly ParcelStatusView[] }) {
  if (parcels.length === 0) return null;
  return (
    <BlockStack gap="050">
      {parcels.map((parcel) => (
        <InlineStack key={parcel.trackingNumber} gap="100" blockAlign="center">
          <Badge tone={PARCEL_TONE[parcel.status]}>{TRACKING_STATUS_TEXT[parcel.status] ?? parcel.status}</Badge>
          <Text as="span" tone="subdued" variant="bodySm">
            {[parcels.length > 1 ? parcel.trackingNumber : null, parcel.place, formatDateTime(parcel.occurredAt)]
              .filter(Boolean)
              .join(" · ")}
          </Text>
        </InlineStack>
      ))}
    </BlockStack>
  );
}

const PARCEL_TONE: Record<string, "info" | "success" | "attention" | "critical" | undefined> = {
  pre_transit: undefined,
  in_transit: "info",
  out_for_delivery: "info",
  delivered: "success",
  attempted_delivery: "attention",
  exception: "attention",
  returned: "critical",
};
