import { Banner, BlockStack, Button, InlineStack, Modal, ProgressBar, Text } from "@shopify/polaris";
import { useId, useState } from "react";

import type { BulkRunView } from "~/routes/app.bulk.$runId/bulk-run-view.server";
import { formatMinorUnits } from "~/utils/money";

import { BulkRunDownloads } from "./bulk-run-downloads";
import { buyingPercent, describeCharged, describeEstimate, plural } from "./bulk-run-text";

// A confirmed run: how far buying has come, what it waits on, how it ended, and what is left to
// do (cancel the rest, retry, print).

type Props = {
  run: BulkRunView;
  busy: boolean;
  onCancel: () => void;
  onRetry: () => void;
  /** "Buy the N labels not bought": the count and total the page showed, confirmed. */
  onBuyNotBought: (expected: { count: number; totalCents: number }) => void;
  onDownloadError: (message: string | null) => void;
};

/** The retry's cause is written to follow "Waiting to retry: "; here it starts the sentence. */
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function describeProgress(run: BulkRunView): string {
  const { progress } = run;
  return [
    `${progress.bought} bought`,
    `${progress.failed} failed`,
    `${progress.remaining} remaining`,
    progress.notStarted > 0 ? `${progress.notStarted} not started` : null,
    progress.notFulfillable > 0 ? `${progress.notFulfillable} not bought (held or closed in Shopify)` : null,
    run.estimate && !run.retrying ? describeEstimate(run.estimate) : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** A run that ended with labels it did not start: buy them, at the total shown, once confirmed. */
function BuyNotBought({ run, busy, onBuy }: { run: BulkRunView; busy: boolean; onBuy: Props["onBuyNotBought"] }) {
  const [confirming, setConfirming] = useState(false);
  const notBought = run.notBought;
  if (!notBought) return null;
  const total = formatMinorUnits(notBought.totalCents, notBought.currency);
  const labels = plural(notBought.count, "label");
  return (
    <>
      <Button variant="primary" loading={busy} disabled={busy} onClick={() => setConfirming(true)}>
        {`Buy the ${notBought.count === 1 ? "label" : `${notBought.count.toLocaleString("en-US")} labels`} not bought for ${total}`}
      </Button>
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Buy ${labels} not bought?`}
        primaryAction={{
          content: `Buy for ${total}`,
          loading: busy,
          disabled: busy,
          onAction: () => {
            setConfirming(false);
            onBuy({ count: notBought.count, totalCents: notBought.totalCents });
          },
        }}
        secondaryActions={[{ content: "Don't buy yet", onAction: () => setConfirming(false) }]}
      >
        <Modal.Section>
          <Text as="p">
            {`Your shipping account is charged ${total} for the ${labels} this run did not buy, at the prices their drafts were quoted. Then each tracking number is added to its fulfillment in Shopify. Each is checked with Shopify again first: one held or cancelled meanwhile is not bought.`}
          </Text>
        </Modal.Section>
      </Modal>
    </>
  );
}

export function BulkRunProgress({ run, busy, onCancel, onRetry, onBuyNotBought, onDownloadError }: Props) {
  const textId = useId();
  const percent = buyingPercent(run.progress);
  const retryable = run.progress.failed + run.progress.notFulfillable;
  const after = run.boughtAfterCancel;
  return (
    <BlockStack gap="300">
      {run.retrying && run.status === "running" ? (
        <Banner tone="warning" title={`Waiting to retry ${plural(run.retrying.count, "label")}`}>
          <p>
            {`${capitalize(run.retrying.cause)} `}
            They are retried automatically; none is charged twice. You can leave this page.
          </p>
        </Banner>
      ) : null}
      {run.status === "cancelled" ? (
        <Banner tone="info" title="You cancelled the rest of this run">
          <p>
            {after && after.count > 0
              ? `${plural(after.count, "label was", "labels were")} already on the way to the shipping service and ${after.count === 1 ? "was" : "were"} bought after you cancelled, for ${formatMinorUnits(after.chargedCents, after.currency)}. `
              : "Nothing was bought after you cancelled. "}
            {`${plural(run.progress.notStarted, "label was", "labels were")} not bought.`}
          </p>
        </Banner>
      ) : null}
      <ProgressBar
        animated={false}
        progress={percent}
        ariaLabelledBy={textId}
        tone={run.progress.failed > 0 ? "critical" : "success"}
      />
      <Text as="p" id={textId}>
        {`${percent}% · ${describeProgress(run)}`}
      </Text>
      {run.status !== "running" ? <Text as="p">{describeCharged(run.charged)}</Text> : null}
      <InlineStack gap="200">
        {run.status !== "running" ? <BuyNotBought run={run} busy={busy} onBuy={onBuyNotBought} /> : null}
        {run.status === "running" ? (
          <Button loading={busy} onClick={onCancel}>
            Cancel the rest
          </Button>
        ) : null}
        {retryable > 0 && run.status !== "running" ? (
          <Button loading={busy} onClick={onRetry}>
            {run.progress.notFulfillable > 0 ? "Retry labels not bought" : "Retry failed labels"}
          </Button>
        ) : null}
      </InlineStack>
      {run.progress.bought > 0 ? <BulkRunDownloads run={run} onError={onDownloadError} /> : null}
    </BlockStack>
  );
}
