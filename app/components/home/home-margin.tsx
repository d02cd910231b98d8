import { BlockStack, DataTable, InlineGrid, Link, Text } from "@shopify/polaris";

import type { HomeScreen, MarginTotals } from "~/routes/app._index/home.server";
import { formatMinorUnits } from "~/utils/money";

import { HomeCard } from "./home-card";
import { NamedScrollRegion } from "./named-scroll-region";

// Shipping margin: what customers paid for shipping against what their labels cost, for the
// week, the month and the latest orders.

function MarginFigure({ title, totals, currency }: { title: string; totals: MarginTotals; currency: string }) {
  return (
    <BlockStack gap="100">
      <Text as="h4" variant="headingSm">
        {title}
      </Text>
      <Text as="p" variant="headingXl" tone={totals.marginCents < 0 ? "critical" : undefined}>
        {formatMinorUnits(totals.marginCents, currency)}
      </Text>
      <Text as="p" variant="bodySm" tone="subdued">
        {totals.orders === 0
          ? "No orders yet"
          : `Paid ${formatMinorUnits(totals.paidCents, currency)} · labels ${formatMinorUnits(totals.costCents, currency)} · ${totals.orders} order${totals.orders === 1 ? "" : "s"}`}
      </Text>
    </BlockStack>
  );
}

export function HomeMargin({ margin, currency }: { margin: HomeScreen["margin"]; currency: string | null }) {
  const rows = margin.recentOrders.map((order) => [
    order.orderId ? (
      <Link key={order.orderGid} url={`/app/orders/${order.orderId}`} removeUnderline>
        {order.orderName}
      </Link>
    ) : (
      order.orderName
    ),
    order.labels,
    order.paidCents === null ? "Not read yet" : formatMinorUnits(order.paidCents, order.currency),
    formatMinorUnits(order.costCents, order.currency),
    order.marginCents === null ? "—" : formatMinorUnits(order.marginCents, order.currency),
  ]);
  return (
    <HomeCard
      title="Shipping margin"
      description="What customers paid for shipping, less what their labels cost (refunds taken off)."
    >
      {currency ? (
        <InlineGrid columns={{ xs: 1, sm: 2 }} gap="400">
          <MarginFigure title="This week" totals={margin.week} currency={currency} />
          <MarginFigure title="This month" totals={margin.month} currency={currency} />
        </InlineGrid>
      ) : null}
      {rows.length > 0 ? (
        <NamedScrollRegion label="Shipping margin of the latest orders">
          <DataTable
            columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric"]}
            headings={["Order", "Labels", "Customer paid", "Labels cost", "Margin"]}
            rows={rows}
          />
        </NamedScrollRegion>
      ) : (
        <Text as="p" tone="subdued">
          Buy a label to see what each order earned or cost you on shipping.
        </Text>
      )}
      {margin.unknownOrders > 0 ? (
        <Text as="p" variant="bodySm" tone="subdued">
          What {margin.unknownOrders} order{margin.unknownOrders === 1 ? "" : "s"} paid for shipping{" "}
          {margin.unknownWaitForRun
            ? "will be read from Shopify when the bulk run under way finishes; until then they are left out."
            : "is still being read from Shopify; until then they are left out. More are read each time you open this page."}
        </Text>
      ) : null}
    </HomeCard>
  );
}
