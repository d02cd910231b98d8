import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { buyLabel } from "~/shipments/buy-label.server";
import { draftShipment } from "~/shipments/draft-shipment.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";

import {
  createEmulators,
  createGate,
  DEMO_ORG,
  draftSeededOrder,
  quoteSeededOrder,
  SHIPPING_BASE_URL,
  TEST_LABEL_SHOP as SHOP,
  waitUntil,
} from "../../test/helpers/labels";
import { listAuditEntries } from "./audit.server";
import { findActiveLabel, findLabel, VOID_READ_BACK_AFTER_MS } from "./label-repository.server";
import { purchase } from "./purchase.server";
import { applyVoidDecision, requestLabelVoid, settleOverdueVoids } from "./void-label.server";
import { writeTracking } from "./write-tracking.server";

// Voiding a bought label (ADR 22), judged by what the emulators recorded: refunds credited at the
// shipping service, fulfillments cancelled and created at Shopify.

async function boughtLabel(name: string, emulators = createEmulators()) {
  const { draft, client, order } = await draftSeededOrder(db, emulators, name);
  const deps = { db, shop: SHOP, admin: emulators.shopify.graphql, shipping: client };
  const bought = await buyLabel(deps, draft.label.id, { notifyCustomer: false });
  if (!bought.ok) throw new Error(bought.error.logMessage);
  const label = await findLabel(db, SHOP, draft.label.id);
  if (label?.status !== "fulfilled" || !label.serviceLabelId) throw new Error(`${name} was not bought and fulfilled`);
  return { emulators, deps, order, label, serviceLabelId: label.serviceLabelId };
}

const liveFulfillments = (emulators: ReturnType<typeof createEmulators>, orderId: string) =>
  emulators.shopify.fulfillments().filter((f) => f.orderId === orderId && f.status === "SUCCESS");

async function scan(serviceLabelId: string, shipping: ReturnType<typeof createEmulators>["shipping"]) {
  const response = await shipping.fetch(`${SHIPPING_BASE_URL}/__emulator/labels/${serviceLabelId}/tracking`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ status: "in_transit", status_detail: "Departed facility" }),
  });
  expect(response.status).toBe(200);
}

describe("voiding a bought label", () => {
  it("asks once from two doors at once, refunds once however the decision arrives, and frees the shipment for a replacement", async () => {
    const { emulators, deps, order, label, serviceLabelId } = await boughtLabel("#1001");
    const charged = emulators.shipping.charges(DEMO_ORG);
    expect(charged).toHaveLength(1);

    // Two doors at once (the order page and the Labels list, say).
    const asked = await Promise.all([requestLabelVoid(deps, label.id), requestLabelVoid(deps, label.id)]);
    expect(asked.every((r) => r.ok)).toBe(true);
    const pending = await findLabel(db, SHOP, label.id);
    expect(pending?.status).toBe("void_pending");
    expect(pending?.void).toMatchObject({
      status: "pending",
      refundCents: charged[0]?.amountCents,
      shopify: "cancelled",
    });
    // Shopify: the fulfillment cancelled, its items open again.
    expect(liveFulfillments(emulators, order.id)).toEqual([]);

    // The carrier refunds; the event and the recovery job's read-back bring it at the same time.
    await emulators.shipping.decideVoid(serviceLabelId, "refunded");
    const decided = await Promise.all(
      [1, 2].map(() => applyVoidDecision(deps, serviceLabelId, { outcome: "refunded", refundCents: null })),
    );
    expect(decided.every((r) => r.ok)).toBe(true);
    expect((await findLabel(db, SHOP, label.id))?.status).toBe("voided");
    expect(emulators.shipping.refunds(DEMO_ORG)).toHaveLength(1);
    const refunds = (await listAuditEntries(db, SHOP, { labelId: label.id })).filter((e) => e.action === "refund");
    expect(refunds.map((e) => e.amountCents)).toEqual([-(charged[0]?.amountCents ?? 0)]);

    // A replacement label for the same shipment is drafted, bought and fulfilled.
    const quoted = await quoteSeededOrder(emulators, "#1001");
    const replacement = await draftShipment({ db, shop: SHOP, shipping: quoted.client }, quoted.input);
    expect(replacement.ok && replacement.value.existing).toBe(false);
    if (!replacement.ok) return;
    const rebought = await buyLabel({ ...deps, shipping: quoted.client }, replacement.value.label.id, {
      notifyCustomer: false,
    });
    expect(rebought.ok).toBe(true);
    expect(liveFulfillments(emulators, order.id)).toHaveLength(1);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(2);
  });

  it("refused because the parcel was scanned: bought again, its tracking back on a Shopify fulfillment, nothing refunded", async () => {
    const { emulators, deps, order, label, serviceLabelId } = await boughtLabel("#1002");
    expect((await requestLabelVoid(deps, label.id)).ok).toBe(true);
    expect(liveFulfillments(emulators, order.id)).toEqual([]);

    // The carrier scans the parcel before deciding: the service refuses the pending void.
    await scan(serviceLabelId, emulators.shipping);
    const refused = { outcome: "rejected", reason: "scanned" } as const;
    const decided = await Promise.all([1, 2].map(() => applyVoidDecision(deps, serviceLabelId, refused)));
    expect(decided.every((r) => r.ok)).toBe(true);

    const after = await findLabel(db, SHOP, label.id);
    expect(after?.status).toBe("fulfilled");
    expect(after?.void).toMatchObject({ status: "rejected", refusal: "scanned", shopify: "restored" });
    const live = liveFulfillments(emulators, order.id);
    expect(live).toHaveLength(1);
    expect(live[0]?.trackingInfo.map((t) => t.number)).toEqual(label.trackingNumbers);
    expect(emulators.shipping.refunds(DEMO_ORG)).toEqual([]);
    // The shipment's one active label is this one again.
    expect((await findActiveLabel(db, SHOP, label.fulfillmentOrderGid))?.id).toBe(label.id);
  });

  it("reads an overdue decision back when its event was lost, and cancels a fulfillment Shopify refused to cancel", async () => {
    const { emulators, deps, order, label, serviceLabelId } = await boughtLabel("#1005");
    // Shopify is down when the void is accepted: the fulfillment stays, marked to cancel.
    emulators.shopify.failNextRequest("SERVICE_UNAVAILABLE");
    expect((await requestLabelVoid(deps, label.id)).ok).toBe(true);
    expect((await findLabel(db, SHOP, label.id))?.void?.shopify).toBe("cancel_pending");
    expect(liveFulfillments(emulators, order.id)).toHaveLength(1);

    // The carrier refunds; its event never arrives.
    await emulators.shipping.decideVoid(serviceLabelId, "refunded");
    const recovery = { ...deps, shipping: deps.shipping };
    // Before the decision is overdue, only the cancel is retried.
    expect(await settleOverdueVoids(recovery)).toBe(1);
    expect(liveFulfillments(emulators, order.id)).toEqual([]);
    expect((await findLabel(db, SHOP, label.id))?.status).toBe("void_pending");

    const later = () => new Date(Date.now() + VOID_READ_BACK_AFTER_MS + 60_000);
    expect(await settleOverdueVoids({ ...recovery, now: later })).toBe(1);
    expect((await findLabel(db, SHOP, label.id))?.status).toBe("voided");
    expect(await settleOverdueVoids({ ...recovery, now: later })).toBe(0);
    const refunds = (await listAuditEntries(db, SHOP, { labelId: label.id })).filter((e) => e.action === "refund");
    expect(refunds).toHaveLength(1);
    expect(emulators.shipping.refunds(DEMO_ORG)).toHaveLength(1);
  });

  it("takes over a void whose process died mid-request, and settles a refund that outran the acceptance", async () => {
    const { emulators, deps, order, label, serviceLabelId } = await boughtLabel("#1006");
    // A process claimed the void and died before asking: its lease is over.
    await db.label.update({
      where: { id: label.id },
      data: { refundStatus: "requesting", claimToken: "dead", leaseUntil: new Date(Date.now() - 1_000) },
    });
    const taken = await requestLabelVoid(deps, label.id);
    expect(taken.ok && taken.value.status).toBe("void_pending");
    expect(liveFulfillments(emulators, order.id)).toEqual([]);
    await emulators.shipping.decideVoid(serviceLabelId, "refunded");
    expect((await applyVoidDecision(deps, serviceLabelId, { outcome: "refunded", refundCents: null })).ok).toBe(true);
    expect(emulators.shipping.refunds(DEMO_ORG)).toHaveLength(1);

    // Another label: the service took the void (a process asked and died before recording the
    // answer) and the refund event arrives first.
    const other = await boughtLabel("#1002", emulators);
    await db.label.update({
      where: { id: other.label.id },
      data: { refundStatus: "requesting", claimToken: "dead", leaseUntil: new Date(Date.now() + 60_000) },
    });
    expect((await other.deps.shipping.voidLabel(other.serviceLabelId)).ok).toBe(true);
    await other.emulators.shipping.decideVoid(other.serviceLabelId, "refunded");
    const settled = await applyVoidDecision(other.deps, other.serviceLabelId, {
      outcome: "refunded",
      refundCents: null,
    });
    expect(settled.ok && settled.value?.status).toBe("voided");
    expect(liveFulfillments(other.emulators, other.order.id)).toEqual([]);
    expect(other.emulators.shipping.refunds(DEMO_ORG)).toHaveLength(2);
  });

  it("refuses before asking the service: a scanned parcel, a draft, another shop's label", async () => {
    const { emulators, deps, label, serviceLabelId } = await boughtLabel("#1003");
    let asked = 0;
    const counting = {
      ...deps,
      shipping: {
        voidLabel: (...args: Parameters<typeof deps.shipping.voidLabel>) => {
          asked += 1;
          return deps.shipping.voidLabel(...args);
        },
      },
    };
    await db.label.update({ where: { id: label.id }, data: { trackingStatus: "in_transit" } });
    const scanned = await requestLabelVoid(counting, label.id);
    expect(!scanned.ok && scanned.error.message).toBe(
      "The carrier has already scanned this parcel, so it can't be voided.",
    );

    const { draft } = await draftSeededOrder(db, emulators, "#1004");
    const drafted = await requestLabelVoid(counting, draft.label.id);
    expect(!drafted.ok && drafted.error.message).toBe("Drafts cost nothing: discard it instead.");

    const elsewhere = await requestLabelVoid({ ...counting, shop: "other-shop.myshopify.com" }, label.id);
    expect(!elsewhere.ok && elsewhere.error.code).toBe("NOT_FOUND");
    expect(asked).toBe(0);
    expect(emulators.shipping.refunds(DEMO_ORG)).toEqual([]);
    expect(serviceLabelId).toBeTruthy();
  });
});

// A label bought, its tracking not yet in Shopify: the write-back is what the void races.
async function boughtUnwritten(name: string) {
  const emulators = createEmulators();
  const { draft, client, order } = await draftSeededOrder(db, emulators, name);
  const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
  if (!bought.ok || !bought.value.serviceLabelId) throw new Error(`${name} was not bought`);
  const deps = { db, shop: SHOP, admin: emulators.shopify.graphql, shipping: client };
  return { emulators, deps, order, label: bought.value, serviceLabelId: bought.value.serviceLabelId };
}

/** The write-back's fulfillmentCreate held: sent when `send` opens, answered when `answer` opens. */
function slowFulfillmentCreate(shopify: AdminGraphqlClient) {
  const send = createGate();
  const landed = createGate();
  const answer = createGate();
  let sending = false;
  const admin: AdminGraphqlClient = async (query, options) => {
    if (!query.includes("fulfillmentCreate")) return shopify(query, options);
    sending = true;
    await send.opened;
    const response = await shopify(query, options);
    landed.open();
    await answer.opened;
    return response;
  };
  return { admin, send, landed, answer, isSending: () => sending };
}

const liveWithTracking = (emulators: ReturnType<typeof createEmulators>, numbers: readonly string[]) =>
  emulators.shopify
    .fulfillments()
    .filter((f) => f.status === "SUCCESS" && f.trackingInfo.some((t) => numbers.includes(t.number ?? "")));

/** After the race: nothing of the voided label left live in Shopify, one charge, one refund, and a replacement fulfils the shipment. */
async function expectSettledAndReplaceable(run: Awaited<ReturnType<typeof boughtUnwritten>>, name: string) {
  const { emulators, deps, order, label, serviceLabelId } = run;
  const voided = await findLabel(db, SHOP, label.id);
  expect(voided).toMatchObject({ status: "void_pending", void: { shopify: "cancelled" } });
  expect(liveWithTracking(emulators, label.trackingNumbers)).toEqual([]);
  expect(emulators.shopify.findFulfillmentOrder(label.fulfillmentOrderGid)?.status).toBe("OPEN");

  await emulators.shipping.decideVoid(serviceLabelId, "refunded");
  expect((await applyVoidDecision(deps, serviceLabelId, { outcome: "refunded", refundCents: null })).ok).toBe(true);
  expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
  expect(emulators.shipping.refunds(DEMO_ORG)).toHaveLength(1);

  const quoted = await quoteSeededOrder(emulators, name);
  const replacement = await draftShipment({ db, shop: SHOP, shipping: quoted.client }, quoted.input);
  if (!replacement.ok) throw new Error(replacement.error.logMessage);
  const rebought = await buyLabel({ ...deps, shipping: quoted.client }, replacement.value.label.id, {
    notifyCustomer: false,
  });
  expect(rebought.ok && rebought.value.label.status).toBe("fulfilled");
  const live = liveFulfillments(emulators, order.id);
  expect(live).toHaveLength(1);
  expect(live[0]?.trackingInfo.map((t) => t.number)).not.toEqual(label.trackingNumbers);
}

describe("a void racing the tracking write-back", () => {
  it.each([
    ["the fulfillment reaches Shopify after the void is accepted", "after"],
    ["the fulfillment reaches Shopify before the void, its answer after", "before"],
  ] as const)("%s: the write-back records it on the voided label and cancels it", async (_name, lands) => {
    const run = await boughtUnwritten("#1001");
    const slow = slowFulfillmentCreate(run.emulators.shopify.graphql);
    const writing = writeTracking({ db, shop: SHOP, admin: slow.admin }, run.label.id, { notifyCustomer: false });
    await waitUntil(slow.isSending, "the write-back is sending its fulfillment");
    if (lands === "before") {
      slow.send.open();
      await slow.landed.opened;
    }

    const asked = await requestLabelVoid(run.deps, run.label.id);
    expect(asked.ok && asked.value.status).toBe("void_pending");

    slow.send.open();
    slow.answer.open();
    expect((await writing).ok).toBe(true);
    await expectSettledAndReplaceable(run, "#1001");
  });

  it("the write-back recorded while the void is being asked: the void cancels the fulfillment it did not see", async () => {
    const run = await boughtUnwritten("#1002");
    const mayAnswer = createGate();
    let asking = false;
    const shipping = {
      voidLabel: async (...args: Parameters<typeof run.deps.shipping.voidLabel>) => {
        asking = true;
        const answer = await run.deps.shipping.voidLabel(...args);
        await mayAnswer.opened;
        return answer;
      },
    };
    const voiding = requestLabelVoid({ ...run.deps, shipping }, run.label.id);
    await waitUntil(() => asking, "the void is asked");
    const written = await writeTracking(run.deps, run.label.id, { notifyCustomer: false });
    expect(written.ok && written.value.status).toBe("fulfilled");
    expect(liveWithTracking(run.emulators, run.label.trackingNumbers)).toHaveLength(1);

    mayAnswer.open();
    expect((await voiding).ok).toBe(true);
    await expectSettledAndReplaceable(run, "#1002");
  });

  it("a writer that died after Shopify took its fulfillment: the recovery job finds it and cancels it", async () => {
    const run = await boughtUnwritten("#1003");
    const slow = slowFulfillmentCreate(run.emulators.shopify.graphql);
    const writing = writeTracking({ db, shop: SHOP, admin: slow.admin }, run.label.id, { notifyCustomer: false });
    await waitUntil(slow.isSending, "the write-back is sending its fulfillment");
    slow.send.open();
    await slow.landed.opened;
    expect((await requestLabelVoid(run.deps, run.label.id)).ok).toBe(true);
    expect(liveWithTracking(run.emulators, run.label.trackingNumbers)).toHaveLength(1);

    // The writer never answers (its process died); once its lease is over, the sweep settles it.
    const later = () => new Date(Date.now() + 5 * 60_000);
    expect(await settleOverdueVoids({ ...run.deps, now: later })).toBe(1);
    expect(liveWithTracking(run.emulators, run.label.trackingNumbers)).toEqual([]);
    expect(await settleOverdueVoids({ ...run.deps, now: later })).toBe(0);

    // Its answer arriving after all changes nothing.
    slow.answer.open();
    expect((await writing).ok).toBe(true);
    await expectSettledAndReplaceable(run, "#1003");
  });

  it("Shopify refusing the cancel flags the label for the merchant instead of retrying", async () => {
    const run = await boughtUnwritten("#1005");
    expect((await writeTracking(run.deps, run.label.id, { notifyCustomer: false })).ok).toBe(true);
    const refusing: AdminGraphqlClient = async (query, options) =>
      query.includes("fulfillmentCancel")
        ? Response.json({
            data: {
              fulfillmentCancel: {
                fulfillment: null,
                userErrors: [{ field: ["id"], message: "Fulfillment cannot be cancelled." }],
              },
            },
          })
        : run.emulators.shopify.graphql(query, options);
    expect((await requestLabelVoid({ ...run.deps, admin: refusing }, run.label.id)).ok).toBe(true);
    expect((await findLabel(db, SHOP, run.label.id))?.void?.shopify).toBe("cancel_failed");
    // Asking again would be refused again: the recovery job leaves it to the merchant.
    expect(await settleOverdueVoids({ ...run.deps, admin: refusing })).toBe(0);
    expect(liveWithTracking(run.emulators, run.label.trackingNumbers)).toHaveLength(1);
    const flagged = (await listAuditEntries(db, SHOP, { labelId: run.label.id })).filter(
      (e) => e.action === "fulfill" && e.outcome === "error",
    );
    expect(flagged).toHaveLength(1);
  });
});
