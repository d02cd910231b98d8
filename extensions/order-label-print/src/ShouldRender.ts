import { anyBoughtLabel } from "../../shared/should-render";

/** Print → "Shipping label" shows only on an order with a bought label. */
export default async () => ({
  display: await anyBoughtLabel(shopify.data.selected.map((s) => s.id)),
});
