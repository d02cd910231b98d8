import { Box, Button, ChoiceList, InlineStack } from "@shopify/polaris";
import { useState } from "react";

import type { BulkRunView } from "~/routes/app.bulk.$runId/bulk-run-view.server";
import { formatMinorUnits } from "~/utils/money";

import { useVoidLabels, VoidLabelsModal } from "../shared/void-labels";

// "Void selected" on a bulk run's page (ADR 22): pick among the run's bought labels (those that
// can't be voided are shown with why, not offered), confirm the count and the refund, then see
// what happened to each. Every void goes through the same use case as the order page's.

export function BulkRunVoid({ run }: { run: BulkRunView }) {
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);
  const voiding = useVoidLabels(() => {
    setOpen(false);
    setPicked([]);
  });

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
      {voiding.banner(
        new Set(run.items.flatMap((i) => (i.labelId && i.refund?.status === "refunded" ? [i.labelId] : []))),
      )}
      {/* A phone's page has no margin of its own (its cards run edge to edge): the link gets the cards' inset. */}
      <Box paddingInline={{ xs: "400", sm: "0" }}>
        <InlineStack>
          <Button tone="critical" variant="plain" disabled={!anyVoidable} onClick={() => setOpen(true)}>
            Void labels…
          </Button>
        </InlineStack>
      </Box>
      <VoidLabelsModal
        open={open}
        title="Void labels from this run"
        candidates={candidates}
        busy={voiding.busy}
        onClose={() => setOpen(false)}
        onConfirm={voiding.submit}
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
