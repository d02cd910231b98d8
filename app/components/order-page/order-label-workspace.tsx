import { BlockStack, Card, Tabs, Text } from "@shopify/polaris";
import { useSearchParams } from "react-router";

import { LABEL_PROGRESS_TEXT } from "~/labels/label-state";
import type { OrderLabelPage } from "~/routes/app.orders.$orderId/order-label-page.server";
import { getNumericId } from "~/shopify/ids";

import { FulfillmentOrderLabel } from "./fulfillment-order-label";
import { VoidedLabelsCard } from "./label-void";
import type { RatesAnswer } from "./rates-card";

// The order page's body: one tab per fulfillment order (a split order ships as several labels),
// the selected one kept in `?fo=` so a reload or a shared link opens the same shipment.

// A shipment Shopify closed (shipped in full) or cancelled, with no label of this app on it, has
// nothing to make a label for: it gets no form, so a merchant who came for a return meets no
// red banner about an outbound label.
const isDone = (s: OrderLabelPage["fulfillmentOrders"][number]) =>
  (s.status === "CLOSED" || s.status === "CANCELLED") && !s.label;

export function OrderLabelWorkspace({
  page,
  quotes = {},
}: {
  page: OrderLabelPage;
  /** The rates loading with the page, by fulfillment order (a shipment ready to quote, without a label). */
  quotes?: Record<string, Promise<RatesAnswer>>;
}) {
  const [params, setParams] = useSearchParams();
  const sections = page.fulfillmentOrders.filter((s) => !isDone(s));
  const wanted = params.get("fo");
  const selected = Math.max(
    0,
    sections.findIndex((s) => getNumericId(s.id) === wanted),
  );
  const section = sections[selected];
  if (!section) {
    return (
      <BlockStack gap="400">
        <Card>
          <Text as="p">
            {page.order.displayFulfillmentStatus === "FULFILLMENT_NOT_REQUIRED"
              ? "Fulfillment not required: the order was cancelled or refunded before anything shipped, so there is nothing to ship."
              : "This order has nothing left to ship."}
          </Text>
        </Card>
        <VoidedLabelsCard labels={page.pastLabels} />
      </BlockStack>
    );
  }
  return (
    <BlockStack gap="400">
      {sections.length > 1 ? (
        <Tabs
          tabs={sections.map((s, i) => ({
            id: s.id,
            content: `Shipment ${i + 1} · ${s.locationName} · ${LABEL_PROGRESS_TEXT[s.label?.progress ?? "none"]}`,
          }))}
          selected={selected}
          onSelect={(index) => {
            const next = new URLSearchParams(params);
            const id = sections[index]?.id;
            if (id) next.set("fo", getNumericId(id) ?? "");
            setParams(next, { preventScrollReset: true });
          }}
        />
      ) : null}
      {/* Above the form: after a void, the refund's state is the first thing the merchant sees. */}
      <VoidedLabelsCard labels={page.pastLabels} />
      {/* Keyed by shipment: each keeps its own form state. */}
      <FulfillmentOrderLabel key={section.id} page={page} section={section} streamedRates={quotes[section.id]} />
    </BlockStack>
  );
}
