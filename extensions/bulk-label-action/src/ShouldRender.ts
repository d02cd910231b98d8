import { anyOrderToShip } from "../../shared/should-render";

/** "Create labels" shows when at least one selected order could still be shipped by a carrier. */
export default async () => ({
  display: await anyOrderToShip(
    shopify.query,
    shopify.data.selected.map((s) => s.id),
  ),
});
