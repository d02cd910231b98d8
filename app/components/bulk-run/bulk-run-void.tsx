import { useFetcher } from "@remix-run/react";
import { Banner, Button, ChoiceList, InlineStack } from "@shopify/polaris";
import { useEffect, useState } from "react";

import type { BulkRunView } from "~/bulk/bulk-run-view.server";
import type { VoidLabelsAnswer } from "~/http/void-labels.server";
import { formatMinorUnits } from "~/utils/money";

import { VoidLabelsModal, VoidResultsBanner } from "../void-labels";

// "Void selected" on a bulk run's page (ADR 22): pick among the run's bought labels (those that
// can't be voided are shown with why, not offered), confirm the count and the refund, then see
// what happened to each. Every void goes through the same use case as the order page's.

export function BulkRunVoid({ run }: { run: BulkRunView }) {
  const fetcher = useFetcher<VoidLabelsAnswer | { error: { message: string } }>();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);
  const [showResults, setShowResults] = useState(false);
  const answer = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== "idle" || !answer) return;
    setOpen(false);
    setPicked([]);
    setShowResults(true);
  }, [fetcher.state, answer]);

  const bought = run.items.filter((i) => i.status === "bought" && i.labelId !== null);
  if (bought.length === 0) return null;
  const candidates = bought.flatMap((item) =>
    item.labelId && picked.includes(item.labelId)
      ? [
          {
            id: item.labelId,
            orderName: item.orderName,
            refundCents: item.chargedCents ?? item.quotedCents,
            currency: item.currency,
            blocker: item.voidBlocker,
          },
        ]
      : [],
  );
  const choices = bought.map((item) => ({
    label: [item.orderName, item.service, formatMinorUnits(item.chargedCents ?? item.quotedCents, item.currency)]
      .filter(Boolean)
      .join(" · "),
    value: item.labelId ?? item.id,
    disabled: item.voidBlocker !== null,
    ...(item.voidBlocker ? { helpText: item.voidBlocker } : {}),
  }));
  const anyVoidable = bought.some((i) => i.voidBlocker === null);

  return (
    <>
      {showResults && answer && "results" in answer ? (
        <VoidResultsBanner
          answer={answer}
          refunded={
            new Set(run.items.flatMap((i) => (i.labelId && i.refund?.status === "refunded" ? [i.labelId] : [])))
          }
          onDismiss={() => setShowResults(false)}
        />
      ) : null}
      {showResults && answer && "error" in answer ? (
        <Banner tone="critical" title="No label was voided" onDismiss={() => setShowResults(false)}>
          <p>{answer.error.message}</p>
        </Banner>
      ) : null}
      <InlineStack>
        <Button tone="critical" variant="plain" disabled={!anyVoidable} onClick={() => setOpen(true)}>
          Void labels…
        </Button>
      </InlineStack>
      <VoidLabelsModal
        open={open}
        title="Void labels from this run"
        candidates={candidates}
        busy={fetcher.state !== "idle"}
        onClose={() => setOpen(false)}
        onConfirm={(labelIds) =>
          fetcher.submit({ intent: "void", labelIds: JSON.stringify(labelIds) }, { method: "post" })
        }
        picker={
          <ChoiceList
            allowMultiple
            title="Labels bought in this run"
            choices={choices}
            selected={picked}
            onChange={setPicked}
          />
        }
      />
    </>
  );
}
