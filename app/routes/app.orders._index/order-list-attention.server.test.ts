import { describe, expect, it } from "vitest";

import type { AutoDraftOutcomeView } from "~/auto-draft/auto-draft-outcomes.server";
import type { LabelView } from "~/labels/label-repository.server";

import { describeAttention } from "./order-list.server";

const label = (fields: Partial<LabelView>): LabelView =>
  ({ fulfillmentOrderGid: "gid://shopify/FulfillmentOrder/1", attention: null, ...fields }) as LabelView;
const outcome = (fields: Partial<AutoDraftOutcomeView>): AutoDraftOutcomeView => ({
  orderGid: "gid://shopify/Order/1",
  orderName: "#1001",
  fulfillmentOrderGid: "gid://shopify/FulfillmentOrder/2",
  status: "blocked",
  problems: [{ path: "to_address.zip", message: "Enter the ZIP code." }],
  note: null,
  labelId: null,
  updatedAt: new Date(),
  ...fields,
});

describe("what an Orders row says needs the merchant", () => {
  it("spells out a flagged bought label and a shipment automatic drafting could not draft", () => {
    expect(
      describeAttention(
        [label({ attention: { reason: "order_cancelled", at: new Date() } })],
        [
          outcome({
            problems: [
              { path: "a", message: "Enter the ZIP code." },
              { path: "b", message: "Add a phone." },
            ],
          }),
        ],
      ),
    ).toEqual([
      "The order was cancelled after its label was bought. Void the label with the carrier, or ship it anyway.",
      "No automatic draft: Enter the ZIP code. (and 1 more)",
    ]);
  });

  it("drops what auto-draft reported once the shipment has a label, and reports drafted shipments not at all", () => {
    expect(
      describeAttention([label({ fulfillmentOrderGid: "gid://shopify/FulfillmentOrder/2" as never })], [outcome({})]),
    ).toEqual([]);
    expect(describeAttention([], [outcome({ status: "drafted", problems: [] })])).toEqual([]);
  });
});
