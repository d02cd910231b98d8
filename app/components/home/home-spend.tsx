import { BlockStack, DataTable, InlineGrid, Text } from "@shopify/polaris";

import type { PeriodSpend } from "~/routes/app._index/home.server";
import { formatMinorUnits } from "~/utils/money";

import { HomeCard } from "./home-card";
import { NamedScrollRegion } from "./named-scroll-region";

// Labels and spend this week and this month, refunds taken off; the month by carrier and service.

type Period = PeriodSpend & { start: string };

const formatDay = (isoDate: string) =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

function describeLabels(period: Period): string {
  const labels = `${period.labels} label${period.labels === 1 ? "" : "s"}`;
  return period.voided > 0 ? `${labels}, ${period.voided} voided` : labels;
}

function PeriodCard({ title, period }: { title: string; period: Period }) {
  const currencies = period.byCurrency;
  return (
    <HomeCard title={title}>
      {currencies.length === 0 ? (
        <Text as="p" variant="heading2xl">
          {formatMinorUnits(0)}
        </Text>
      ) : (
        currencies.map((c) => (
          <Text as="p" variant="heading2xl" key={c.currency}>
            {formatMinorUnits(c.spendCents, c.currency)}
          </Text>
        ))
      )}
      <Text as="p" tone="subdued">
        {describeLabels(period)}
        {currencies.map((c) =>
          c.averageCents !== null ? ` · ${formatMinorUnits(c.averageCents, c.currency)} a label on average` : "",
        )}
      </Text>
      {currencies.some((c) => c.refundedCents > 0) ? (
        <Text as="p" tone="subdued">
          Refunded:{" "}
          {currencies
            .filter((c) => c.refundedCents > 0)
            .map((c) => formatMinorUnits(c.refundedCents, c.currency))
            .join(", ")}
        </Text>
      ) : null}
    </HomeCard>
  );
}

export function HomeSpend({ week, month }: { week: Period; month: Period }) {
  const rows = month.byCurrency.flatMap((c) =>
    c.byService.map((s) => [
      s.carrier,
      s.service,
      s.labels,
      formatMinorUnits(s.spendCents, c.currency),
      formatMinorUnits(Math.round(s.spendCents / s.labels), c.currency),
    ]),
  );
  return (
    <BlockStack gap="400">
      <InlineGrid columns={{ xs: 1, sm: 2 }} gap="400">
        <PeriodCard title={`This week (since ${formatDay(week.start)})`} period={week} />
        <PeriodCard title={`This month (since ${formatDay(month.start)})`} period={month} />
      </InlineGrid>
      <HomeCard title="This month by carrier and service">
        {rows.length === 0 ? (
          <Text as="p" tone="subdued">
            No labels bought this month yet.
          </Text>
        ) : (
          <NamedScrollRegion label="This month by carrier and service">
            <DataTable
              columnContentTypes={["text", "text", "numeric", "numeric", "numeric"]}
              headings={["Carrier", "Service", "Labels", "Spend", "Average"]}
              rows={rows}
            />
          </NamedScrollRegion>
        )}
        <Text as="p" variant="bodySm" tone="subdued">
          Spend is what the labels bought in the period cost, less what their voids refunded. Weeks start on Monday;
          days and months are UTC, as the shipping service bills.
        </Text>
      </HomeCard>
    </BlockStack>
  );
}
