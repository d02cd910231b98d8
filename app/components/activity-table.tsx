import { Link as RemixLink } from "@remix-run/react";
import { Badge, BlockStack, IndexTable, Text } from "@shopify/polaris";

import type { ActivityEntry } from "~/screens/activity.server";
import { formatMinorUnits } from "~/utils/money";

import { formatDateTime } from "./format-date-time";

type Tone = "success" | "info" | "attention" | "warning" | "critical" | undefined;

export const OUTCOMES: Record<ActivityEntry["outcome"], { label: string; tone: Tone; help: string }> = {
  ok: { label: "Charged", tone: "success", help: "The service charged this call." },
  recovered: {
    label: "Recovered",
    tone: "info",
    help: "Charged once by an earlier attempt whose answer was lost; found and saved later.",
  },
  error: { label: "Not charged", tone: undefined, help: "The service refused the call; nothing was charged." },
  unknown: {
    label: "Charge unconfirmed",
    tone: "warning",
    help: "No answer came back, so it may have been charged. The app checks again by itself.",
  },
};

// A call whose outcome was unknown, once the service said what became of its label.
const SETTLED = {
  bought: {
    label: "Confirmed later",
    tone: "info",
    help: "The label was bought once; its charge is the purchase listed for this order.",
  },
  not_bought: { label: "Not charged", tone: undefined, help: "Confirmed later: the label was not bought then." },
} as const satisfies Record<string, (typeof OUTCOMES)[keyof typeof OUTCOMES]>;

const ACTIONS: Record<ActivityEntry["action"], string> = {
  validate: "Address validation",
  purchase: "Label purchase",
  refund: "Refund (label voided)",
};

export function describeStaff(staffMemberId: string | null): string {
  // Names need extra access scopes; the id is what the session token carries.
  return staffMemberId ? `Staff #${staffMemberId}` : "The app (background)";
}

export function ActivityTable({ entries, loading }: { entries: ActivityEntry[]; loading: boolean }) {
  return (
    <IndexTable
      resourceName={{ singular: "billable call", plural: "billable calls" }}
      itemCount={entries.length}
      selectable={false}
      loading={loading}
      headings={[
        { title: "When" },
        { title: "Call" },
        { title: "Order" },
        { title: "Amount", alignment: "end" },
        { title: "Outcome" },
        { title: "By" },
        { title: "Request id" },
      ]}
    >
      {entries.map((entry, index) => {
        const outcome = entry.outcome === "unknown" && entry.settled ? SETTLED[entry.settled] : OUTCOMES[entry.outcome];
        return (
          <IndexTable.Row id={entry.id} key={entry.id} position={index}>
            <IndexTable.Cell>{formatDateTime(entry.createdAt)}</IndexTable.Cell>
            <IndexTable.Cell>{ACTIONS[entry.action]}</IndexTable.Cell>
            <IndexTable.Cell>
              {entry.orderNumericId ? (
                // Remix Link: in-app navigation that keeps the embedded admin's context.
                <RemixLink to={`/app/orders/${entry.orderNumericId}`}>
                  {entry.orderName ?? `Order ${entry.orderNumericId}`}
                </RemixLink>
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
              </BlockStack>
            </IndexTable.Cell>
            <IndexTable.Cell>{describeStaff(entry.staffMemberId)}</IndexTable.Cell>
            <IndexTable.Cell>
              <Text as="span" variant="bodySm" breakWord>
                {entry.requestId ?? "—"}
              </Text>
            </IndexTable.Cell>
          </IndexTable.Row>
        );
      })}
    </IndexTable>
  );
}
