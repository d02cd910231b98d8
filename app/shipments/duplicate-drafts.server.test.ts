import { describe, expect, it, vi } from "vitest";

import db from "~/db.server";
import { findActiveLabel } from "~/labels/label-repository.server";
import { purchase } from "~/labels/purchase.server";
import type { FulfillmentOrderGid } from "~/shopify/ids";

import { createEmulators, DEMO_ORG, quoteSeededOrder, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import { draftShipment, quietAfterLostDrafts, UNCONFIRMED_DRAFT_HOLD_MS } from "./draft-shipment.server";

// Issue 22, item 5. The service has no idempotency key and no way to list drafts, so a draft whose
// answer was lost cannot be found again: it is left unused (drafts are free), never bought, and
// automatic doors do not draft that shipment again on their own. Verdicts are the emulator's
// (drafts created, charges), not the app's.

const SHOP = TEST_LABEL_SHOP;
const LOST_DRAFT = { failures: [{ endpoint: "POST /v1/labels", kind: "lost_after_charge" as const, times: 1 }] };

describe("a draft whose answer was lost", () => {
  it("costs one untracked draft at most: automatic doors hold, the merchant's draft is the one bought", async () => {
    const emulators = createEmulators();
    const { input, client } = await quoteSeededOrder(emulators, "#1001");
    const fo = input.fulfillmentOrderGid as FulfillmentOrderGid;
    // The draft's deadline is measured on the shipping client's (real) clock: no fixed date here.
    const now = new Date();

    // Auto-draft's first attempt: the service drafts, the answer never arrives.
    emulators.shipping.setFaults(LOST_DRAFT);
    const lost = await draftShipment({ db, shop: SHOP, shipping: client, now, automatic: true }, input);
    expect(!lost.ok && lost.error.shipping?.outcomeUnknown).toBe(true);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(await findActiveLabel(db, SHOP, fo)).toBeNull();

    // The job's retry (and a bulk check) do not draft again: that would be a second unused draft.
    const retried = await draftShipment({ db, shop: SHOP, shipping: client, now, automatic: true }, input);
    expect(!retried.ok && retried.error.code).toBe("DRAFT_UNCONFIRMED");
    expect(!retried.ok && retried.error.message).toMatch(
      /tries again at \d\d:\d\d UTC\. Create the label from the order page/,
    );
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);

    // The merchant drafts from the order page: one more draft, and the page says why.
    const drafted = await draftShipment({ db, shop: SHOP, shipping: client, now }, input);
    if (!drafted.ok) throw new Error(drafted.error.logMessage);
    expect(drafted.value.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/may exist there unused/),
    );
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(2);

    // Buying buys the tracked draft, never the lost one.
    const bought = await purchase({ db, shop: SHOP, shipping: client }, drafted.value.label.id);
    expect(bought.ok).toBe(true);
    expect(emulators.shipping.charges(DEMO_ORG).map((c) => c.labelId)).toEqual([drafted.value.label.serviceLabelId]);

    // An automatic door now finds the merchant's label and makes nothing.
    const again = await draftShipment({ db, shop: SHOP, shipping: client, now, automatic: true }, input);
    expect(again.ok && again.value.existing).toBe(true);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(2);
  });

  // Issue 40, item 6: a blip costs minutes, not a day. The database's clock stamps the lost
  // answer, so the test's times are counted from the real one.
  it("holds automatic drafting a few minutes after a lost answer, longer after a second in a row", async () => {
    const emulators = createEmulators();
    const { input, client } = await quoteSeededOrder(emulators, "#1002");
    const at = (msAfter: number) => new Date(Date.now() + msAfter);
    const automatic = (now: Date) => draftShipment({ db, shop: SHOP, shipping: client, now, automatic: true }, input);
    emulators.shipping.setFaults({ failures: [{ endpoint: "POST /v1/labels", kind: "lost_after_charge", times: 2 }] });
    expect((await automatic(at(0))).ok).toBe(false);

    // Quiet for five minutes: nothing sent, and the error says when it tries again.
    const held = await automatic(at(4 * 60_000));
    expect(!held.ok && held.error.code).toBe("DRAFT_UNCONFIRMED");
    expect(!held.ok && held.error.retryAt?.getTime()).toBeGreaterThan(at(4 * 60_000).getTime());
    expect(!held.ok && held.error.retryAt?.getTime()).toBeLessThanOrEqual(at(quietAfterLostDrafts(1)).getTime());
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);

    // After it, one more try: its answer is lost too (one more untracked draft), so it holds longer.
    expect((await automatic(at(6 * 60_000))).ok).toBe(false);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(2);
    const longer = await automatic(at(6 * 60_000 + quietAfterLostDrafts(1) + 60_000));
    expect(!longer.ok && longer.error.code).toBe("DRAFT_UNCONFIRMED");
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(2);

    // After the longer quiet it drafts, and the draft is tracked.
    const drafted = await automatic(at(6 * 60_000 + quietAfterLostDrafts(2) + 60_000));
    expect(drafted.ok && drafted.value.existing).toBe(false);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(3);
  });

  it("never holds longer than a day, whatever the losses", () => {
    expect([1, 2, 3].map(quietAfterLostDrafts)).toEqual([5 * 60_000, 30 * 60_000, 3 * 60 * 60_000]);
    expect(quietAfterLostDrafts(9)).toBe(UNCONFIRMED_DRAFT_HOLD_MS);
  });

  it("never holds a shipment whose draft failed for a known reason", async () => {
    const emulators = createEmulators();
    const { input, client } = await quoteSeededOrder(emulators, "#1003");
    // The draft's deadline is measured on the shipping client's (real) clock: no fixed date here.
    const now = new Date();
    // 429: a refusal the service never processed, so no draft can exist.
    emulators.shipping.setFaults({
      failures: [{ endpoint: "POST /v1/labels", kind: "rate_limited", times: 10, retry_after: 0 }],
    });
    expect((await draftShipment({ db, shop: SHOP, shipping: client, now, automatic: true }, input)).ok).toBe(false);
    emulators.shipping.setFaults({ failures: [] });
    const drafted = await draftShipment({ db, shop: SHOP, shipping: client, now, automatic: true }, input);
    expect(drafted.ok).toBe(true);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
  });
});

// Issue 39: the database restarts (or the session is terminated) between the service's draft and
// the write recording it. Failing there left the slot "creating" until its lease and then drafted
// the shipment again; the write is retried across the outage instead.
describe("a draft whose record meets a lost database connection", () => {
  const lost = () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

  it("records the draft once the connection is back, and drafts once", async () => {
    const emulators = createEmulators();
    const { input, client } = await quoteSeededOrder(emulators, "#1004");
    const fo = input.fulfillmentOrderGid as FulfillmentOrderGid;
    const updateMany = db.label.updateMany.bind(db.label);
    vi.spyOn(db.label, "updateMany").mockRejectedValueOnce(lost()).mockImplementation(updateMany);

    const drafted = await draftShipment({ db, shop: SHOP, shipping: client, automatic: true }, input);

    expect(drafted.ok && drafted.value.existing).toBe(false);
    expect(await findActiveLabel(db, SHOP, fo)).toMatchObject({ status: "draft", serviceLabelId: expect.any(String) });
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
  });

  it("takes a write that committed with its answer lost for the draft it recorded", async () => {
    const emulators = createEmulators();
    const { input, client } = await quoteSeededOrder(emulators, "#1005");
    const fo = input.fulfillmentOrderGid as FulfillmentOrderGid;
    const updateMany = db.label.updateMany.bind(db.label);
    vi.spyOn(db.label, "updateMany")
      // The update commits, then its answer is lost.
      .mockImplementationOnce(((args: Parameters<typeof updateMany>[0]) =>
        updateMany(args).then(() => Promise.reject(lost()))) as unknown as typeof updateMany)
      .mockImplementation(updateMany);

    const drafted = await draftShipment({ db, shop: SHOP, shipping: client, automatic: true }, input);

    expect(drafted).toMatchObject({ ok: true, value: { existing: false, label: { status: "draft" } } });
    expect(await findActiveLabel(db, SHOP, fo)).toMatchObject({ status: "draft" });
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
  });
});
