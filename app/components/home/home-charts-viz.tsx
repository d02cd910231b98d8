import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

import { formatMinorUnits } from "~/utils/money";

import { CHART_HEIGHT, type HomeChartsProps } from "./home-charts";

// The charts themselves (Recharts), in their own module so the browser loads the chart library
// only on the home, after the page (home-charts.tsx). Amounts are drawn in whole currency units,
// so the axis gets round ticks, and labelled as money.

// Polaris's data-visualization blues and a contrasting purple and orange.
const COLORS = { spend: "#1f5199", carriers: "#2c6ecb", margin: "#29845a", paid: "#8051ff", cost: "#e35a1e" };

const formatDay = (isoDate: unknown) =>
  new Date(`${String(isoDate)}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

export default function HomeChartsViz(props: HomeChartsProps & { which: "spend" | "carriers" | "margin" }) {
  const currency = props.currency ?? "USD";
  const money = (value: unknown) => formatMinorUnits(Math.round(Number(value ?? 0) * 100), currency);
  // No cents on the axis: "$12" reads faster than "$12.00" at a glance.
  const axisMoney = (value: unknown) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 0 }).format(
      Number(value ?? 0),
    );
  const units = (minor: number) => minor / 100;
  const height = CHART_HEIGHT;
  if (props.which === "spend") {
    return (
      <ResponsiveContainer width="100%" height={height}>
        <BarChart
          data={props.spendPerDay.map((d) => ({ date: d.date, spend: units(d.spendCents) }))}
          title="Spend per day, the last 30 days"
        >
          <CartesianGrid vertical={false} stroke="#e3e3e3" />
          <XAxis dataKey="date" tickFormatter={formatDay} minTickGap={24} tick={{ fontSize: 12 }} />
          <YAxis tickFormatter={axisMoney} width={56} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(value) => [money(value), "Spend"]} labelFormatter={formatDay} />
          <Bar dataKey="spend" name="Spend" fill={COLORS.spend} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    );
  }
  if (props.which === "carriers") {
    return (
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={props.labelsByCarrier} layout="vertical" title="Labels by carrier this month">
          <CartesianGrid horizontal={false} stroke="#e3e3e3" />
          <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} />
          <YAxis type="category" dataKey="carrier" width={72} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(value) => [String(value), "Labels"]} />
          <Bar dataKey="labels" name="Labels" fill={COLORS.carriers} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    );
  }
  // Each week: what customers paid and what the labels cost side by side, the margin as a line.
  const weeks = props.marginByWeek.map((w) => ({
    weekStart: w.weekStart,
    paid: units(w.paidCents),
    cost: units(w.costCents),
    margin: units(w.marginCents),
  }));
  return (
    <ResponsiveContainer width="100%" height={height}>
      <ComposedChart data={weeks} title="Shipping margin by week, the last 8 weeks">
        <CartesianGrid vertical={false} stroke="#e3e3e3" />
        <XAxis dataKey="weekStart" tickFormatter={formatDay} tick={{ fontSize: 12 }} />
        <YAxis tickFormatter={axisMoney} width={56} tick={{ fontSize: 12 }} />
        <Tooltip formatter={(value, name) => [money(value), name]} labelFormatter={(v) => `Week of ${formatDay(v)}`} />
        <Legend />
        <Bar dataKey="paid" name="Customers paid" fill={COLORS.paid} isAnimationActive={false} />
        <Bar dataKey="cost" name="Labels cost" fill={COLORS.cost} isAnimationActive={false} />
        <Line dataKey="margin" name="Margin" stroke={COLORS.margin} strokeWidth={2} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
