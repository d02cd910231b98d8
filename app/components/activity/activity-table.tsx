import { Badge, BlockStack, IndexTable, Text } from "@shopify/polaris";
import { Link as RouterLink } from "react-router";

import type { ActivityEntry } from "~/routes/app.activity/activity.server";
import { formatMinorUnits } from "~/utils/money";

import { formatDateTime } from "../shared/format-date-time";
import { SupportDetails } from "../shared/support-details";

type Tone = "success" | "info" | "attention" | "warning" | "critical" | undefined;

export const OUTCOMES: Record<ActivityEntry["outcome"], { label: string; tone: Tone; help: string }> = {
  ok: { label: "Charged", tone: "success", help: "Your shipping service charged this." },
  recovered: {
    label: "Charged",
    tone: "success",
    help: "Charged once. The shipping service's answer was lost on the way; the app asked again and kept the label.",
  },
  error: { label: "Not charged", tone: undefined, help: "The shipping service refused it; nothing was charged." },
  unknown: {
    label: "Charge unconfirmed",
    tone: "warning",
    help: "No answer came back, so it may have been charged. The app checks again by itself.",
  },
};

// A void the carrier accepted: money back, not a charge.
const REFUNDED = {
  label: "Refunded",
  tone: "success",
  help: "The shipping service credited this label's charge back to your balance.",
} as const satisfies (typeof OUTCOMES)[keyof typeof OUTCOMES];

// A call whose outcome was unknown, once the service said what became of its label.
const SETTLED = {
  bought: {
    label: "No extra charge",
    tone: "info",
    help: "The label was bought once; its charge is the purchase listed for this order.",
  },
  not_bought: {
    label: "Not charged",
    tone: undefined,
    help: "The shipping service confirmed afterwards that nothing was bought then.",
  },
} as const satisfies Record<string, (typeof OUTCOMES)[keyof typeof OUTCOMES]>;

const ACTIONS: Record<ActivityEntry["action"], string> = {
  validate: "Address validation",
  purchase: "Label purchase",
  refund: "Refund (label voided)",
};

/**
 * Who made the call, in words: names need Shopify's staff data (a scope the app does not ask
 * for), so the merchant's own calls say "You" and a colleague's "A staff member".
 */
export function describeStaff(staffMemberId: string | null, viewerId: string | null): string {
  if (!staffMemberId) return "The app, on its own";
  return staffMemberId === viewerId ? "You" : "A staff member";
}

export function ActivityTable({
  entries,
  loading,
  viewerId,
}: {
  entries: ActivityEntry[];
  loading: boolean;
  /** The signed-in staff member (the session token's user), whose calls read "You". */
  viewerId: string | null;
}) {
  return (
    <IndexTable
      resourceName={{ singular: "entry", plural: "entries" }}
      itemCount={entries.length}
      selectable={false}
      loading={loading}
      headings={[
        { title: "When" },
        { title: "What" },
        { title: "Order" },
        { title: "Amount", alignment: "end" },
        { title: "Outcome" },
        { title: "By" },
      ]}
    >
      {entries.map((entry, index) => {
        const outcome =
          entry.action === "refund" && entry.outcome === "ok"
            ? REFUNDED
            : entry.outcome === "unknown" && entry.settled
              ? SETTLED[entry.settled]
              : OUTCOMES[entry.outcome];
        return (
          <IndexTable.Row id={entry.id} key={entry.id} position={index}>
            <IndexTable.Cell>{formatDateTime(entry.createdAt)}</IndexTable.Cell>
            <IndexTable.Cell>{ACTIONS[entry.action]}</IndexTable.Cell>
            <IndexTable.Cell>
              {entry.orderNumericId ? (
                // React Router Link: in-app navigation that keeps the embedded admin's context.
                <RouterLink to={`/app/orders/${entry.orderNumericId}`}>
                  {entry.orderName ?? `Order ${entry.orderNumericId}`}
                </RouterLink>
              ) : (
                "—"
              )}
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Text as="span" alignment="end" numeric>
                {formatMinorUnits(entry.amountCents, entry.currency)}
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>
              {/* inlineAlign="start": a badge as wide as its words, not the column. */}
              <BlockStack gap="050" inlineAlign="start">
                <Badge tone={outcome.tone}>{outcome.label}</Badge>
                <Text as="span" tone="subdued" variant="bodySm">
                  {outcome.help}
                </Text>
                {entry.requestId ? (
                  // For the shipping service's support: out of the way until asked for.
                  <SupportDetails>Request id {entry.requestId}</SupportDetails>
                ) : null}
              </BlockStack>
            </IndexTable.Cell>
            <IndexTable.Cell>{describeStaff(entry.staffMemberId, viewerId)}</IndexTable.Cell>
          </IndexTable.Row>
        );
      })}
    </IndexTable>
  );
}
