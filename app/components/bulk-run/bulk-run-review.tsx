import { BlockStack, Button, InlineStack, Modal, Text } from "@shopify/polaris";
import { useState } from "react";

import { describeBulkChoice } from "~/bulk/describe-bulk-choice";
import type { BulkRunView } from "~/routes/app.bulk.$runId/bulk-run-view.server";
import { formatMinorUnits } from "~/utils/money";

import { plural } from "./bulk-run-text";
import { MissingCustomsList } from "./missing-customs-list";

// The review of a checked run: what will be bought and for how much, and a Buy that asks first,
// as a single label's Buy does: nothing is charged before the merchant confirms the exact total.

type Props = {
  run: BulkRunView;
  busy: boolean;
  onConfirm: (expected: { count: number; totalCents: number }) => void;
  onCancel: () => void;
};

/** "UPS Ground × 3, DHL Express Worldwide": what the ready labels are bought with. */
function describeServices(run: BulkRunView): string {
  const counts = new Map<string, number>();
  for (const item of run.items) {
    if (item.status !== "ready") continue;
    const name = item.service ?? "the chosen service";
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => (count > 1 ? `${name} × ${count}` : name)).join(", ");
}

export function BulkRunReview({ run, busy, onConfirm, onCancel }: Props) {
  const [confirming, setConfirming] = useState(false);
  const ready = run.items.filter((i) => i.status === "ready");
  const blocked = run.items.filter((i) => i.status === "blocked").length;
  const total = formatMinorUnits(run.totalCents);
  return (
    <BlockStack gap="300">
      <Text as="p" tone="subdued">
        {describeBulkChoice(run.choice)}
      </Text>
      <Text as="p">
        {plural(ready.length, "label")} ready, {total} in total.
        {run.optionsInTotal ? ` ${run.optionsInTotal}` : ""}
        {blocked === 1 ? " 1 shipment needs fixing and is left out: open its order to fix it." : ""}
        {blocked > 1
          ? ` ${plural(blocked, "shipment")} need fixing and are left out: open their orders to fix them.`
          : ""}
      </Text>
      <MissingCustomsList products={run.productsMissingCustoms} />
      <InlineStack gap="200">
        <Button
          variant="primary"
          disabled={ready.length === 0 || busy}
          loading={busy}
          onClick={() => setConfirming(true)}
        >
          {`Buy ${plural(ready.length, "label")} for ${total}`}
        </Button>
        <Button disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
      </InlineStack>
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Buy ${plural(ready.length, "label")}?`}
        primaryAction={{
          content: `Buy for ${total}`,
          loading: busy,
          disabled: busy,
          onAction: () => {
            setConfirming(false);
            onConfirm({ count: ready.length, totalCents: run.totalCents });
          },
        }}
        secondaryActions={[{ content: "Don't buy yet", onAction: () => setConfirming(false) }]}
      >
        <Modal.Section>
          <BlockStack gap="200">
            <Text as="p">
              Your shipping account is charged {total} for {plural(ready.length, "label")} ({describeServices(run)}).
              {run.optionsInTotal ? ` ${run.optionsInTotal}` : ""} Then each tracking number is added to its fulfillment
              in Shopify.
            </Text>
            <Text as="p" tone="subdued">
              You can cancel the rest while they are being bought: labels already sent to the shipping service are still
              bought, the others are not.
            </Text>
          </BlockStack>
        </Modal.Section>
      </Modal>
    </BlockStack>
  );
}
