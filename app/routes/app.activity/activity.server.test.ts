import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { purchase } from "~/labels/purchase.server";

import {
  createEmulators,
  DEMO_ORG,
  draftSeededOrder,
  loseTheNextPurchaseAnswer,
  TEST_LABEL_SHOP,
} from "../../../test/helpers/labels";
import { listActivity } from "./activity.server";

const SHOP = TEST_LABEL_SHOP;
const later = () => new Date(Date.now() + 10 * 60_000);

describe("an unconfirmed purchase on the Activity screen", () => {
  it("reads as unconfirmed while the label is being confirmed, and as settled once it is bought", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    loseTheNextPurchaseAnswer(emulators.shipping);
    const unknown = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    expect(unknown.ok ? null : unknown.error.code).toBe("PURCHASE_OUTCOME_UNKNOWN");
    const before = await listActivity(db, SHOP);
    expect(before.entries.map((e) => [e.outcome, e.settled])).toEqual([["unknown", null]]);

    emulators.shipping.setFaults({ failures: [] });
    const bought = await purchase({ db, shop: SHOP, shipping: client, now: later }, draft.label.id);
    expect(bought.ok && bought.value.status).toBe("purchased");
    const after = await listActivity(db, SHOP);
    expect(after.entries.find((e) => e.outcome === "unknown")?.settled).toBe("bought");
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
  });
});
