import { anyOrderToShip } from "../../shared/should-render";

/** "Create label" shows only on an order a carrier could still ship (not pickup, local, fulfilled). */
export default async () => ({
  display: await anyOrderToShip(
    shopify.query,
    shopify.data.selected.map((s) => s.id),
  ),
});
