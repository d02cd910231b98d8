import { BlockStack, Box, InlineGrid, SkeletonBodyText, Text } from "@shopify/polaris";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";

import type { HomeScreen } from "~/routes/app._index/home.server";

import { HomeCard } from "./home-card";

// The home's charts: spend per day, labels by carrier, margin over time, drawn by Recharts. Its
// charts measure their container, so they are drawn in the browser only, loaded after the page
// (the library is most of the home's script): the server sends each card at its final height with
// a skeleton, so nothing shifts when the charts arrive. (Polaris Viz was tried first: it reads
// `window` while rendering on the server, and its charts fail axe's list and image-alt rules.)

const HomeChartsViz = lazy(() => import("./home-charts-viz"));

export const CHART_HEIGHT = 220;

export type HomeChartsProps = {
  currency: string | null;
  spendPerDay: HomeScreen["spendPerDay"];
  labelsByCarrier: HomeScreen["labelsByCarrier"];
  marginByWeek: HomeScreen["margin"]["byWeek"];
};

function ChartCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <HomeCard title={title} description={description}>
      <div style={{ height: CHART_HEIGHT }}>{children}</div>
    </HomeCard>
  );
}

function Placeholder() {
  return (
    <Box paddingBlockStart="400">
      <SkeletonBodyText lines={6} />
    </Box>
  );
}

export function HomeCharts(props: HomeChartsProps) {
  // Rendered on the server and at hydration as placeholders, then the charts (no mismatch).
  const [inBrowser, setInBrowser] = useState(false);
  useEffect(() => setInBrowser(true), []);
  const empty = {
    spend: props.spendPerDay.every((d) => d.spendCents === 0) ? "No labels bought in the last 30 days." : null,
    carriers: props.labelsByCarrier.length === 0 ? "No labels bought this month." : null,
    margin: props.marginByWeek.every((w) => w.orders === 0) ? "No orders with a known shipping payment yet." : null,
  };
  const chart = (which: "spend" | "carriers" | "margin") =>
    empty[which] ? (
      <Text as="p" tone="subdued">
        {empty[which]}
      </Text>
    ) : inBrowser ? (
      <Suspense fallback={<Placeholder />}>
        <HomeChartsViz {...props} which={which} />
      </Suspense>
    ) : (
      <Placeholder />
    );
  return (
    <BlockStack gap="400">
      <ChartCard title="Spend per day" description="The last 30 days, refunds taken off">
        {chart("spend")}
      </ChartCard>
      <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
        <ChartCard title="Labels by carrier" description="This month, voided labels left out">
          {chart("carriers")}
        </ChartCard>
        <ChartCard title="Shipping margin by week" description="Customers paid less labels cost, the last 8 weeks">
          {chart("margin")}
        </ChartCard>
      </InlineGrid>
    </BlockStack>
  );
}
