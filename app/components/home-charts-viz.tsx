import { BarChart, DonutChart, LineChart, PolarisVizProvider } from "@shopify/polaris-viz";

import { formatMinorUnits } from "~/utils/money";

import type { HomeChartsProps } from "./home-charts";

// The charts themselves, in their own module so the browser loads Polaris Viz only on the home,
// after the page (home-charts.tsx). Amounts go to the charts in whole units and come back as money.

const formatDay = (isoDate: string) =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

export default function HomeChartsViz(props: HomeChartsProps & { which: "spend" | "carriers" | "margin" }) {
  const currency = props.currency ?? "USD";
  const money = (value: string | number | null) => formatMinorUnits(Math.round(Number(value ?? 0) * 100), currency);
  const day = (value: string | number | null) => formatDay(String(value));
  return (
    <PolarisVizProvider defaultTheme="Light">
      {props.which === "spend" ? (
        <BarChart
          theme="Light"
          isAnimated={false}
          showLegend={false}
          emptyStateText="No labels bought in the last 30 days"
          data={[
            {
              name: "Spend",
              data: props.spendPerDay.map((d) => ({ key: d.date, value: d.spendCents / 100 })),
            },
          ]}
          xAxisOptions={{ labelFormatter: day }}
          yAxisOptions={{ labelFormatter: money }}
          tooltipOptions={{ valueFormatter: money, titleFormatter: day }}
        />
      ) : props.which === "carriers" ? (
        <DonutChart
          theme="Light"
          isAnimated={false}
          legendPosition="right"
          data={props.labelsByCarrier.map((c) => ({ name: c.carrier, data: [{ key: c.carrier, value: c.labels }] }))}
        />
      ) : (
        <LineChart
          theme="Light"
          isAnimated={false}
          emptyStateText="No orders with a known shipping payment yet"
          data={[
            {
              name: "Margin",
              data: props.marginByWeek.map((w) => ({ key: w.weekStart, value: w.marginCents / 100 })),
            },
            {
              name: "Customers paid",
              data: props.marginByWeek.map((w) => ({ key: w.weekStart, value: w.paidCents / 100 })),
            },
            {
              name: "Labels cost",
              data: props.marginByWeek.map((w) => ({ key: w.weekStart, value: w.costCents / 100 })),
            },
          ]}
          xAxisOptions={{ labelFormatter: (value) => `Week of ${day(value)}` }}
          yAxisOptions={{ labelFormatter: money }}
          tooltipOptions={{ valueFormatter: money, titleFormatter: (value) => `Week of ${day(value)}` }}
        />
      )}
    </PolarisVizProvider>
  );
}
