import { Banner, BlockStack, List, Modal, Text } from "@shopify/polaris";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";

import type { VoidLabelsAnswer } from "~/http/void-labels.server";
import type { LabelVoidOutcomes } from "~/labels/void-label.server";
import { formatMinorUnits } from "~/utils/money";

import {
  countOf,
  describeRefundTotal,
  describeVoidAction,
  splitVoidable,
  type VoidCandidate,
} from "./void-labels-text";

// "Void labels" over a selection (the Labels list, a bulk run's page), ADR 22: a confirmation that
// names how many labels and the refund, and lists those that will not be voided and why (nothing
// is sent for them); then what happened to each.

// Past this many, the modal names only how many: the merchant chose them a moment ago.
const LISTED = 10;

type ModalProps = {
  open: boolean;
  candidates: readonly VoidCandidate[];
  busy: boolean;
  onConfirm: (labelIds: string[]) => void;
  onClose: () => void;
  /** Where the merchant picks the labels, above the confirmation (a bulk run's page). */
  picker?: ReactNode;
  title?: string;
};

export function VoidLabelsModal({ open, candidates, busy, onConfirm, onClose, picker, title }: ModalProps) {
  const { voidable, blocked } = splitVoidable(candidates);
  const total = describeRefundTotal(voidable);
  const one = voidable.length === 1;
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={
        title ??
        (voidable.length === 0
          ? "These labels can't be voided"
          : one
            ? "Void this label?"
            : `Void ${voidable.length} labels?`)
      }
      primaryAction={{
        content: describeVoidAction(voidable),
        destructive: true,
        disabled: voidable.length === 0,
        loading: busy,
        onAction: () => onConfirm(voidable.map((l) => l.id)),
      }}
      secondaryActions={[{ content: voidable.length === 0 ? "Close" : "Keep the labels", onAction: onClose }]}
    >
      {picker ? <Modal.Section>{picker}</Modal.Section> : null}
      <Modal.Section>
        <BlockStack gap="300">
          {voidable.length === 0 && picker ? <p>Choose the labels to void.</p> : null}
          {voidable.length > 0 ? (
            <>
              {voidable.length <= LISTED && !picker ? (
                <List type="bullet">
                  {voidable.map((l) => (
                    <List.Item key={l.id}>{`${l.orderName}: ${formatMinorUnits(l.refundCents, l.currency)}`}</List.Item>
                  ))}
                </List>
              ) : null}
              <p>
                {total} goes back to your shipping balance once the carrier confirms {one ? "the void" : "each void"},
                usually within minutes. Don&apos;t ship with {one ? "this label" : "these labels"}.
              </p>
              <p>
                {one ? "Its fulfillment" : "Their fulfillments"} in Shopify {one ? "is" : "are"} cancelled now, so you
                can create {one ? "a replacement label" : "replacement labels"} right away. If the carrier scans a
                parcel before it confirms, that void is refused and the tracking goes back to Shopify.
              </p>
            </>
          ) : null}
          {blocked.length > 0 ? (
            <Banner tone="warning" title={`${countOf(blocked.length, "selected label")} won't be voided`}>
              <BlockStack gap="100">
                <List type="bullet">
                  {blocked.slice(0, LISTED).map((l) => (
                    <List.Item key={l.id}>{`${l.orderName}: ${l.blocker}`}</List.Item>
                  ))}
                </List>
                {blocked.length > LISTED ? (
                  <Text as="p">{`And ${countOf(blocked.length - LISTED, "more")}.`}</Text>
                ) : null}
                <Text as="p">Nothing is sent to the carrier for {blocked.length === 1 ? "it" : "them"}.</Text>
              </BlockStack>
            </Banner>
          ) : null}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

/** What happened to each label the merchant asked to void. */
export function VoidResultsBanner({
  answer,
  refunded,
  onDismiss,
}: {
  answer: LabelVoidOutcomes;
  /** The labels refunded by now, as the page last loaded them: the banner follows the carrier. */
  refunded: ReadonlySet<string>;
  onDismiss: () => void;
}) {
  const { results, notFound } = answer;
  const asked = results.filter((r) => r.outcome !== "refused");
  const allRefunded = asked.length > 0 && asked.every((r) => r.outcome === "refunded" || refunded.has(r.labelId));
  const refused = results.filter((r) => r.outcome === "refused");
  const notVoided = refused.length + notFound;
  if (results.length === 0 && notFound === 0) return null;
  const total = describeRefundTotal(asked);
  return (
    <Banner
      tone={notVoided === 0 ? "success" : asked.length === 0 ? "critical" : "warning"}
      title={
        asked.length === 0
          ? `${countOf(notVoided, "label was", "labels were")} not voided`
          : allRefunded
            ? `Refunded ${countOf(asked.length, "label")}: ${total}`
            : `Refund pending for ${countOf(asked.length, "label")}: ${total}`
      }
      onDismiss={onDismiss}
    >
      <BlockStack gap="200">
        {asked.length > 0 ? (
          <p>
            {allRefunded
              ? "The carrier confirmed: the money is back in your shipping balance. "
              : "The money goes back to your shipping balance once the carrier confirms, usually within minutes. "}
            {asked.length === 1 ? "Its fulfillment" : "Their fulfillments"} in Shopify{" "}
            {asked.length === 1 ? "is" : "are"} cancelled, so {asked.length === 1 ? "the order is" : "the orders are"}{" "}
            ready for new labels.
          </p>
        ) : null}
        {notVoided > 0 && asked.length > 0 ? (
          <Text as="p" fontWeight="semibold">{`${countOf(notVoided, "label was", "labels were")} not voided:`}</Text>
        ) : null}
        {notVoided > 0 ? (
          <List type="bullet">
            {refused.map((r) => (
              <List.Item key={r.labelId}>{`${r.orderName}: ${r.message ?? "It can't be voided."}`}</List.Item>
            ))}
            {notFound > 0 ? (
              <List.Item>{`${countOf(notFound, "label")} no longer found: reload the page.`}</List.Item>
            ) : null}
          </List>
        ) : null}
      </BlockStack>
    </Banner>
  );
}

type VoidFetcherData = VoidLabelsAnswer | { error: { message: string } };

/**
 * Sends "Void labels" for the route the screen is on (its action takes `intent=void` and
 * `labelIds`), and shows what came back until dismissed. `onAnswered` runs once per answer (to
 * close the modal, clear a selection).
 */
export function useVoidLabels(onAnswered: (answer: VoidFetcherData) => void) {
  const fetcher = useFetcher<VoidFetcherData>();
  const [shown, setShown] = useState(false);
  const answered = useRef(onAnswered);
  answered.current = onAnswered;
  const answer = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== "idle" || !answer) return;
    setShown(true);
    answered.current(answer);
  }, [fetcher.state, answer]);
  return {
    busy: fetcher.state !== "idle",
    submit: (labelIds: string[]) =>
      fetcher.submit({ intent: "void", labelIds: JSON.stringify(labelIds) }, { method: "post" }),
    /** The answer's banner; `refunded` are the labels refunded by now, as the page last loaded them. */
    banner: (refunded: ReadonlySet<string>) =>
      !shown || !answer ? null : "error" in answer ? (
        <Banner tone="critical" title="No label was voided" onDismiss={() => setShown(false)}>
          <p>{answer.error.message}</p>
        </Banner>
      ) : (
        <VoidResultsBanner answer={answer} refunded={refunded} onDismiss={() => setShown(false)} />
      ),
  };
}
