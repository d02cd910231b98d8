import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { checkForDraft } from "~/shipments/check-shipment";
import { CREATING_LEASE_MS, draftShipment } from "~/shipments/draft-shipment.server";
import { createShippingClient, type ShippingClient } from "~/shipping/client.server";
import { createShippingError } from "~/shipping/errors";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { createFulfillmentWithTracking } from "~/shopify/fulfillments";
import { err } from "~/utils/result";

import {
  buyAtTheService,
  countingFetch,
  crashAfterCharge,
  createEmulators,
  createGate,
  createTestShippingClient,
  DEMO_ORG,
  draftSeededOrder,
  interceptDb,
  loseTheNextPurchaseAnswer,
  quoteSeededOrder,
  readyDraftFor,
  SHIPPING_BASE_URL,
  TEST_LABEL_SHOP,
  waitUntil,
} from "../../test/helpers/labels";
import { listAuditEntries } from "./audit.server";
import { discardDraft } from "./discard-draft.server";
import { findLabel } from "./label-repository.server";
import { claimCreationSlot } from "./label-transitions.server";
import { purchase, PURCHASE_LEASE_MS, type PurchaseShippingPort, recoverStuckPurchases } from "./purchase.server";
import { MAX_WRITE_BACK_ATTEMPTS, writeTracking } from "./write-tracking.server";

// The paths where one fulfillment order could be charged twice, a write-back Shopify accepted
// recorded as failed, or an audit entry lost. Each test drives one adversarial schedule and
// judges by what the emulators recorded: charges and drafts at the shipping service,
// fulfillments at Shopify.

const SHOP = TEST_LABEL_SHOP;
const tenMinutesLater = () => new Date(Date.now() + 10 * 60_000);
const twentyMinutesLater = () => new Date(Date.now() + 20 * 60_000);

const purchaseCharges = async (labelId: string) =>
  (await listAuditEntries(db, SHOP, { labelId })).filter(
    (e) => e.action === "purchase" && (e.outcome === "ok" || e.outcome === "recovered"),
  );

function fakeClock(start = Date.now()) {
  let t = start;
  return {
    now: () => t,
    date: () => new Date(t),
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

describe("a label the service may have charged never goes back to draft", () => {
  it("buys nothing when a takeover cannot read the label back, and the merchant cannot start over", async () => {
    const emulators = createEmulators();
    const { draft, client, input } = await draftSeededOrder(db, emulators, "#1001");
    const labelId = draft.label.id;
    // The first attempt is charged, then its process dies.
    await expect(purchase({ db, shop: SHOP, shipping: crashAfterCharge(client) }, labelId)).rejects.toThrow();
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);

    // The service can neither be read nor bought from right now.
    emulators.shipping.setFaults({
      failures: [
        { endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 50 },
        { endpoint: "POST /v1/labels/{id}/purchase", kind: "rate_limited", times: 50, retry_after: 1 },
      ],
    });
    const counted = countingFetch(emulators.shipping);
    const faulted = createTestShippingClient(emulators.shipping, "sk_live_demo", counted.fetch);
    const takeover = await purchase({ db, shop: SHOP, shipping: faulted, now: tenMinutesLater }, labelId);
    expect(takeover.ok ? null : takeover.error.code).toBe("PURCHASE_OUTCOME_UNKNOWN");
    expect(counted.count("POST", "/purchase")).toBe(0);
    expect(await findLabel(db, SHOP, labelId)).toMatchObject({ status: "purchasing" });

    // Starting over is refused: no discard, and a new draft is the same label.
    const discarded = await discardDraft({ db, shop: SHOP, shipping: client }, labelId);
    expect(discarded.ok ? null : discarded.error.code).toBe("INVALID_STATE");
    const redraft = await draftShipment({ db, shop: SHOP, shipping: client }, input);
    expect(redraft.ok && redraft.value).toMatchObject({ existing: true, label: { id: labelId } });

    // Once the service answers, the purchase it made is saved, never made again.
    emulators.shipping.setFaults({ failures: [] });
    // After the quiet period a request still in flight had to land in, a takeover reads back.
    const recovered = await purchase({ db, shop: SHOP, shipping: client, now: twentyMinutesLater }, labelId);
    expect(recovered.ok && recovered.value.status).toBe("purchased");
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect((await purchaseCharges(labelId)).map((e) => e.outcome)).toEqual(["recovered"]);
  });

  it("saves a 409 ALREADY_PURCHASED as the purchase it is, even when the label cannot be read back", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1002");
    await buyAtTheService(emulators.shipping, draft.label.serviceLabelId);
    emulators.shipping.setFaults({ failures: [{ endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 50 }] });

    const result = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    expect(result.ok && result.value.status).toBe("purchased");
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect((await purchaseCharges(draft.label.id)).map((e) => e.outcome)).toEqual(["recovered"]);
  });
});

describe("a draft creation never overwrites a label it no longer owns", () => {
  it("leaves a slow creation's draft unused when the slot was taken over, bought and fulfilled meanwhile", async () => {
    const emulators = createEmulators();
    const { client, input } = await quoteSeededOrder(emulators, "#1001");
    const slowAnswer = createGate();
    const slow: Pick<ShippingClient, "createDraftLabel"> = {
      createDraftLabel: async (request, options) => {
        const created = await client.createDraftLabel(request, options);
        await slowAnswer.opened;
        return created;
      },
    };
    const start = Date.now();
    const first = draftShipment({ db, shop: SHOP, shipping: slow, now: new Date(start) }, input);
    await waitUntil(() => emulators.shipping.labelsCreated(DEMO_ORG) === 1, "the slow draft exists at the service");

    // After the creating lease, another request takes the slot over, and the label is bought
    // and its tracking written back.
    const later = new Date(start + CREATING_LEASE_MS + 1_000);
    const second = await draftShipment({ db, shop: SHOP, shipping: client, now: later }, input);
    if (!second.ok) throw new Error(second.error.logMessage);
    expect(second.value.existing).toBe(false);
    const labelId = second.value.label.id;
    const bought = await purchase({ db, shop: SHOP, shipping: client }, labelId);
    expect(bought.ok && bought.value.status).toBe("purchased");
    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, labelId, {});
    expect(written.ok && written.value.status).toBe("fulfilled");

    // The slow request finally hears back: it must not turn the label into its own draft.
    slowAnswer.open();
    const late = await first;
    if (!late.ok) throw new Error(late.error.logMessage);
    expect(late.value).toMatchObject({ existing: true, label: { id: labelId, status: "fulfilled" } });
    expect(late.value.label.serviceLabelId).toBe(second.value.label.serviceLabelId);

    // Buying it again charges nothing more.
    const again = await purchase({ db, shop: SHOP, shipping: client }, labelId);
    expect(again.ok && again.value.status).toBe("fulfilled");
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(2);
  });
});

describe("a draft creation that lost its claim does not record its draft", () => {
  it("keeps the draft of the caller that owns the slot when the overtaken caller finishes first", async () => {
    const emulators = createEmulators();
    const { client, input } = await quoteSeededOrder(emulators, "#1001");
    const gated = (gate: ReturnType<typeof createGate>): Pick<ShippingClient, "createDraftLabel"> => ({
      createDraftLabel: async (request, options) => {
        const created = await client.createDraftLabel(request, options);
        await gate.opened;
        return created;
      },
    });
    const firstAnswer = createGate();
    const secondAnswer = createGate();
    const start = Date.now();
    const first = draftShipment({ db, shop: SHOP, shipping: gated(firstAnswer), now: new Date(start) }, input);
    await waitUntil(() => emulators.shipping.labelsCreated(DEMO_ORG) === 1, "the first draft exists at the service");
    const later = new Date(start + CREATING_LEASE_MS + 1_000);
    const second = draftShipment({ db, shop: SHOP, shipping: gated(secondAnswer), now: later }, input);
    await waitUntil(() => emulators.shipping.labelsCreated(DEMO_ORG) === 2, "the second draft exists at the service");

    // The overtaken first caller hears back first: the slot is no longer its own.
    firstAnswer.open();
    const lost = await first;
    expect(lost.ok && lost.value.existing).toBe(true);
    secondAnswer.open();
    const won = await second;
    if (!won.ok) throw new Error(won.error.logMessage);
    expect(won.value.existing).toBe(false);
    const label = await findLabel(db, SHOP, won.value.label.id);
    expect(label).toMatchObject({ status: "draft", serviceLabelId: won.value.label.serviceLabelId });
    expect(await db.label.count({ where: { shop: SHOP } })).toBe(1);
  });
});

describe("no shipping call outlives the lease that guards it", () => {
  function clockedClient(emulators: ReturnType<typeof createEmulators>, clock: ReturnType<typeof fakeClock>) {
    return createShippingClient({
      baseUrl: SHIPPING_BASE_URL,
      apiKey: "sk_live_demo",
      fetch: emulators.shipping.fetch,
      now: clock.now,
      sleep: clock.sleep,
      maxRetries: 10,
    });
  }

  it("gives up a purchase the service keeps rate-limiting before the purchase lease ends, uncharged", async () => {
    const emulators = createEmulators();
    const { draft } = await draftSeededOrder(db, emulators, "#1001");
    emulators.shipping.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/purchase", kind: "rate_limited", times: 50, retry_after: 50 }],
    });
    const clock = fakeClock();
    const start = clock.now();
    const result = await purchase(
      { db, shop: SHOP, shipping: clockedClient(emulators, clock), now: clock.date },
      draft.label.id,
    );
    expect(clock.now() - start).toBeLessThan(PURCHASE_LEASE_MS);
    expect(result.ok ? null : result.error.shipping?.code).toBe("RATE_LIMITED");
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ status: "draft" });
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(0);
  });

  it("gives up a draft creation the service keeps rate-limiting before the creating lease ends", async () => {
    const emulators = createEmulators();
    const { input } = await quoteSeededOrder(emulators, "#1001");
    emulators.shipping.setFaults({
      failures: [{ endpoint: "POST /v1/labels", kind: "rate_limited", times: 50, retry_after: 30 }],
    });
    const clock = fakeClock();
    const start = clock.now();
    const result = await draftShipment(
      { db, shop: SHOP, shipping: clockedClient(emulators, clock), now: clock.date() },
      input,
    );
    expect(clock.now() - start).toBeLessThan(CREATING_LEASE_MS);
    expect(result.ok ? null : result.error.shipping?.code).toBe("RATE_LIMITED");
    expect(await db.label.count({ where: { shop: SHOP, activeKey: { not: null } } })).toBe(0);
  });
});

describe("a write-back Shopify accepted is never recorded as failed", () => {
  it("adopts the fulfillment a slower writer created, instead of marking the label failed", async () => {
    const emulators = createEmulators();
    const { draft, client, order } = await draftSeededOrder(db, emulators, "#1003");
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    const shopify = emulators.shopify.graphql;

    // Writer A's fulfillmentCreate is slow: it reaches Shopify late and its answer later still.
    const aMaySend = createGate();
    const aLanded = createGate();
    const aMayAnswer = createGate();
    let aSending = false;
    const adminA: AdminGraphqlClient = async (query, options) => {
      if (!query.includes("fulfillmentCreate")) return shopify(query, options);
      aSending = true;
      await aMaySend.opened;
      const response = await shopify(query, options);
      aLanded.open();
      await aMayAnswer.opened;
      return response;
    };
    // Writer B takes over after A's lease; A's request lands just before B's.
    const adminB: AdminGraphqlClient = async (query, options) => {
      if (query.includes("fulfillmentCreate")) {
        aMaySend.open();
        await aLanded.opened;
      }
      return shopify(query, options);
    };

    const a = writeTracking({ db, shop: SHOP, admin: adminA }, draft.label.id, {});
    await waitUntil(() => aSending, "writer A is sending its fulfillment");
    const b = await writeTracking({ db, shop: SHOP, admin: adminB, now: tenMinutesLater }, draft.label.id, {});
    const fulfillments = emulators.shopify.fulfillments().filter((f) => f.orderId === order.id);
    expect(fulfillments).toHaveLength(1);
    if (!b.ok) throw new Error(b.error.logMessage);
    expect(b.value).toMatchObject({
      status: "fulfilled",
      fulfillmentGid: fulfillments[0]?.id,
      writeBack: { status: "done" },
    });

    aMayAnswer.open();
    const late = await a;
    expect(late.ok && late.value).toMatchObject({ status: "fulfilled", fulfillmentGid: fulfillments[0]?.id });
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ writeBack: { status: "done" } });
    expect(emulators.shopify.fulfillments().filter((f) => f.orderId === order.id)).toHaveLength(1);
  });
});

describe("a writer that stalls past its lease never creates a second fulfillment", () => {
  it("sends nothing once its lease is over, and adopts what the writer that took over created", async () => {
    const emulators = createEmulators();
    const quoted = await quoteSeededOrder(emulators, "#1017");
    const { client, input, order } = quoted;
    const line = input.lineItems.find((l) => l.quantity >= 2);
    if (!line) throw new Error("seed: #1017 should ship a line with two units");
    // One unit of a two-unit line: Shopify would accept a second fulfillment for the other.
    const draft = await draftShipment(
      { db, shop: SHOP, shipping: client },
      readyDraftFor(quoted, { lineItems: [{ ...line, quantity: 1 }] }),
    );
    if (!draft.ok) throw new Error(draft.error.logMessage);
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.value.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    const shopify = emulators.shopify.graphql;

    // One clock for both writers, as in one world: A stalls (a GC pause, a frozen container)
    // right after reading the fulfillment order, for longer than its lease.
    let t = Date.now();
    const clock = () => new Date(t);
    const aResumes = createGate();
    let aStalled = false;
    const adminA: AdminGraphqlClient = async (query, options) => {
      const response = await shopify(query, options);
      if (query.includes("FulfillmentOrderForWriteBack") && !aStalled) {
        aStalled = true;
        await aResumes.opened;
      }
      return response;
    };
    const a = writeTracking({ db, shop: SHOP, admin: adminA, now: clock }, bought.value.id, {});
    await waitUntil(() => aStalled, "writer A stalled");
    t += 61_000;
    const b = await writeTracking({ db, shop: SHOP, admin: shopify, now: clock }, bought.value.id, {});
    if (!b.ok) throw new Error(b.error.logMessage);
    aResumes.open();
    const late = await a;

    const fulfillments = emulators.shopify.fulfillments().filter((f) => f.orderId === order.id);
    expect(fulfillments).toHaveLength(1);
    expect(late.ok && late.value.fulfillmentGid).toBe(fulfillments[0]?.id);
    expect(await findLabel(db, SHOP, bought.value.id)).toMatchObject({
      status: "fulfilled",
      fulfillmentGid: fulfillments[0]?.id,
    });
  });
});

describe("after an unknown outcome, a request still in flight gets time to land", () => {
  it("does not let the next click take the label over at once", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    loseTheNextPurchaseAnswer(emulators.shipping);
    const first = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    expect(first.ok ? null : first.error.code).toBe("PURCHASE_OUTCOME_UNKNOWN");
    emulators.shipping.setFaults({ failures: [] });
    const counted = countingFetch(emulators.shipping);
    const next = await purchase(
      { db, shop: SHOP, shipping: createTestShippingClient(emulators.shipping, "sk_live_demo", counted.fetch) },
      draft.label.id,
      { waitMs: 0 },
    );
    expect(next.ok ? null : next.error).toMatchObject({
      code: "PURCHASE_OUTCOME_UNKNOWN",
      message: expect.stringMatching(/still confirming .* Try again in \d+ seconds/),
    });
    expect(counted.requests).toEqual([]);
  });
});

describe("a purchase and the audit of its charge are saved together", () => {
  it("never leaves a bought label without its audit entry, and answers with a result, not a crash", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    const brokenAudit = interceptDb(db, { failAuditInserts: true });

    const result = await purchase({ db: brokenAudit, shop: SHOP, shipping: client }, draft.label.id);
    expect(result.ok ? null : result.error.code).toBe("PURCHASE_OUTCOME_UNKNOWN");
    expect(result.ok ? "" : result.error.message).toMatch(/will not be charged again/);
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ status: "purchasing" });
    expect(await purchaseCharges(draft.label.id)).toHaveLength(0);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);

    // The recovery job finishes it: saved and audited once, charged once.
    const recovered = await recoverStuckPurchases({ db, shop: SHOP, shipping: client, now: tenMinutesLater });
    expect(recovered.map((l) => l.status)).toEqual(["purchased"]);
    const audit = await purchaseCharges(draft.label.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]?.amountCents).toBe(emulators.shipping.charges(DEMO_ORG)[0]?.amountCents);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
  });
});

describe("a caller never gets ok for a label that is not bought", () => {
  it("saves the purchase the service confirmed to a caller whose attempt was taken over meanwhile", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    const aMayAnswer = createGate();
    const portA: PurchaseShippingPort = {
      getLabel: (id, options) => client.getLabel(id, options),
      purchaseLabel: async (id, options) => {
        const result = await client.purchaseLabel(id, options);
        await aMayAnswer.opened;
        return result;
      },
    };
    const bMayRead = createGate();
    let bReading = false;
    const portB: PurchaseShippingPort = {
      purchaseLabel: (id, options) => client.purchaseLabel(id, options),
      getLabel: async (id, options) => {
        bReading = true;
        await bMayRead.opened;
        return client.getLabel(id, options);
      },
    };

    const a = purchase({ db, shop: SHOP, shipping: portA }, draft.label.id);
    await waitUntil(() => emulators.shipping.charges(DEMO_ORG).length === 1, "A's purchase was charged");
    // A's answer is slow; after its lease B takes over and starts reading the label back.
    const b = purchase({ db, shop: SHOP, shipping: portB, now: tenMinutesLater }, draft.label.id);
    await waitUntil(() => bReading, "B is reading the label back");

    aMayAnswer.open();
    const answerA = await a;
    expect(answerA.ok && answerA.value.status).toBe("purchased");

    bMayRead.open();
    const answerB = await b;
    expect(answerB.ok && answerB.value.status).toBe("purchased");
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(await purchaseCharges(draft.label.id)).toHaveLength(1);
  });
});

describe("a takeover refused by the service reads the label back before saying anything", () => {
  it("saves a charge that landed late as bought, instead of showing the label as a draft", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    // A's request reaches the service late: after B, taking over, has read the label back as a draft.
    const aMaySend = createGate();
    let aSending = false;
    const portA: PurchaseShippingPort = {
      getLabel: (id, options) => client.getLabel(id, options),
      purchaseLabel: async (id, options) => {
        aSending = true;
        await aMaySend.opened;
        return client.purchaseLabel(id, options);
      },
    };
    // B's own purchase is rate-limited, as A's late request lands and is charged.
    const portB: PurchaseShippingPort = {
      getLabel: (id, options) => client.getLabel(id, options),
      purchaseLabel: async () => {
        aMaySend.open();
        await waitUntil(() => emulators.shipping.charges(DEMO_ORG).length === 1, "A's late request was charged");
        return err(createShippingError({ code: "RATE_LIMITED", status: 429, logMessage: "429 from the service" }));
      },
    };

    const a = purchase({ db, shop: SHOP, shipping: portA }, draft.label.id);
    await waitUntil(() => aSending, "A's request is on its way");
    const b = await purchase({ db, shop: SHOP, shipping: portB, now: tenMinutesLater }, draft.label.id);
    expect(b.ok && b.value.status).toBe("purchased");
    expect((await findLabel(db, SHOP, draft.label.id))?.status).toBe("purchased");
    await a;
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
    expect(await purchaseCharges(draft.label.id)).toHaveLength(1);
  });
});

describe("labels that cannot be bought answer at once", () => {
  it("refuses a label that is still being created, saying so", async () => {
    const emulators = createEmulators();
    const { input, client } = await quoteSeededOrder(emulators, "#1001");
    const labelId = await claimCreationSlot(db, SHOP, input, {
      token: "someone-else",
      leaseUntil: new Date(Date.now() + 60_000),
    });
    if (!labelId) throw new Error("no slot");
    let sleeps = 0;
    const sleep = async () => {
      sleeps += 1;
    };
    const result = await purchase({ db, shop: SHOP, shipping: client, sleep }, labelId);
    expect(result.ok ? null : result.error).toMatchObject({
      code: "INVALID_STATE",
      message: expect.stringMatching(/still being created/),
    });
    expect(sleeps).toBe(0);
  });

  it("answers INVALID_STATE at once, without waiting, for a draft discarded just before the claim", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    const racing = interceptDb(db, {
      beforeLabelUpdateMany: async () => {
        const discarded = await discardDraft({ db, shop: SHOP, shipping: client }, draft.label.id);
        if (!discarded.ok || !discarded.value.discarded) throw new Error("could not discard");
      },
    });
    let sleeps = 0;
    const sleep = async () => {
      sleeps += 1;
    };
    const result = await purchase({ db: racing, shop: SHOP, shipping: client, sleep }, draft.label.id, {
      waitMs: 10_000,
    });
    expect(result.ok ? null : result.error).toMatchObject({
      code: "INVALID_STATE",
      message: expect.stringMatching(/discarded/),
    });
    expect(sleeps).toBe(0);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(0);
  });
});

describe("discarding a draft asks the service first", () => {
  it("keeps a label the service reports bought, saving it as bought instead of voiding it", async () => {
    const emulators = createEmulators();
    const { draft, client, input } = await draftSeededOrder(db, emulators, "#1001");
    await buyAtTheService(emulators.shipping, draft.label.serviceLabelId);

    const result = await discardDraft({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.discarded).toBe(false);
    expect(result.value.label).toMatchObject({ status: "purchased", writeBack: { status: "pending" } });
    expect(result.value.label.trackingNumbers).toHaveLength(1);
    expect((await purchaseCharges(draft.label.id)).map((e) => e.outcome)).toEqual(["recovered"]);

    // The fulfillment order keeps its label: no second draft, no second charge.
    const redraft = await draftShipment({ db, shop: SHOP, shipping: client }, input);
    expect(redraft.ok && redraft.value.existing).toBe(true);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(emulators.shipping.charges(DEMO_ORG)).toHaveLength(1);
  });

  it("keeps the draft when the service cannot be asked", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    emulators.shipping.setFaults({ failures: [{ endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 50 }] });
    const result = await discardDraft({ db, shop: SHOP, shipping: client }, draft.label.id);
    expect(result.ok ? null : result.error.code).toBe("SHIPPING_ERROR");
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ status: "draft" });
  });

  it("keeps the draft when the service says it does not know the label (another account, a wrong host)", async () => {
    const emulators = createEmulators();
    const { draft } = await draftSeededOrder(db, emulators, "#1001");
    const otherAccount = createTestShippingClient(emulators.shipping, "sk_live_poor");
    const result = await discardDraft({ db, shop: SHOP, shipping: otherAccount }, draft.label.id);
    expect(result.ok ? null : result.error.code).toBe("SHIPPING_ERROR");
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({ status: "draft" });
  });

  it("voids a draft the service confirms was never bought", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    const result = await discardDraft({ db, shop: SHOP, shipping: client }, draft.label.id);
    expect(result.ok && result.value).toMatchObject({ discarded: true, label: { status: "voided" } });
  });
});

describe("the write-back fulfils exactly the label's items", () => {
  it("fulfils only the items on the label, leaving the rest of the fulfillment order open", async () => {
    const emulators = createEmulators();
    const quoted = await quoteSeededOrder(emulators, "#1017");
    const { client, input, order } = quoted;
    const [first, second] = input.lineItems;
    if (!first || !second) throw new Error("seed: #1017 should ship two lines");
    const draft = await draftShipment(
      { db, shop: SHOP, shipping: client },
      readyDraftFor(quoted, { lineItems: [first] }),
    );
    if (!draft.ok) throw new Error(draft.error.logMessage);
    expect(draft.value.label.lineItems).toEqual([first]);
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.value.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, bought.value.id, {});
    if (!written.ok) throw new Error(written.error.logMessage);

    const fulfillment = emulators.shopify.fulfillments().find((f) => f.id === written.value.fulfillmentGid);
    expect(fulfillment?.lineItems.map((l) => [l.fulfillmentOrderLineItemId, l.quantity])).toEqual([
      [first.id, first.quantity],
    ]);
    const fo = emulators.shopify.findFulfillmentOrder(input.fulfillmentOrderGid);
    expect(fo?.status).toBe("IN_PROGRESS");
    expect(fo?.lineItems.find((l) => l.id === second.id)?.remainingQuantity).toBe(second.quantity);
    expect(order.id).toBe(written.value.orderGid);
  });

  it("sends no more than remains when part of the label's items were fulfilled in Shopify meanwhile", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1017");
    const lines = draft.label.lineItems;
    const twoOf = lines.find((l) => l.quantity >= 2);
    if (!twoOf) throw new Error("seed: #1017 should ship a line with two units");
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    // The merchant ships one unit by hand in Shopify before the write-back runs.
    const byHand = await createFulfillmentWithTracking(emulators.shopify.graphql, {
      fulfillmentOrderId: draft.label.fulfillmentOrderGid,
      lineItems: [{ id: twoOf.id, quantity: 1 }],
      tracking: { company: "USPS", numbers: ["9400100000000000000000"], urls: [] },
      notifyCustomer: false,
    });
    if (!byHand.ok) throw new Error(byHand.error.logMessage);

    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {});
    if (!written.ok) throw new Error(written.error.logMessage);
    const fulfillment = emulators.shopify.fulfillments().find((f) => f.id === written.value.fulfillmentGid);
    expect(fulfillment?.lineItems.find((l) => l.fulfillmentOrderLineItemId === twoOf.id)?.quantity).toBe(
      twoOf.quantity - 1,
    );
    expect(emulators.shopify.findFulfillmentOrder(draft.label.fulfillmentOrderGid)?.status).toBe("CLOSED");
  });

  it("adopts a fulfillment whose tracking number Shopify stored in another case or with spaces", async () => {
    const emulators = createEmulators();
    // UPS numbers carry letters (1Z...), so their case can differ.
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001", {
      pickRate: (rates) => rates.find((r) => r.carrier === "UPS"),
    });
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    const [number] = bought.value.trackingNumbers;
    if (!number || number.toLowerCase() === number)
      throw new Error(`expected a tracking number with letters: ${number}`);
    const byHand = await createFulfillmentWithTracking(emulators.shopify.graphql, {
      fulfillmentOrderId: draft.label.fulfillmentOrderGid,
      lineItems: draft.label.lineItems,
      tracking: { company: "USPS", numbers: [` ${number.toLowerCase()} `], urls: [] },
      notifyCustomer: false,
    });
    if (!byHand.ok) throw new Error(byHand.error.logMessage);
    const written = await writeTracking({ db, shop: SHOP, admin: emulators.shopify.graphql }, draft.label.id, {});
    expect(written.ok && written.value.fulfillmentGid).toBe(byHand.value.id);
    expect(emulators.shopify.fulfillments()).toHaveLength(1);
  });

  it("stops retrying a write-back that keeps failing, and hands it to the merchant", async () => {
    const emulators = createEmulators();
    const { draft, client } = await draftSeededOrder(db, emulators, "#1001");
    const bought = await purchase({ db, shop: SHOP, shipping: client }, draft.label.id);
    if (!bought.ok) throw new Error(bought.error.logMessage);
    const down: AdminGraphqlClient = async () => new Response("down", { status: 503 });
    for (let i = 0; i < MAX_WRITE_BACK_ATTEMPTS; i++) {
      await writeTracking({ db, shop: SHOP, admin: down }, draft.label.id, {});
    }
    expect(await findLabel(db, SHOP, draft.label.id)).toMatchObject({
      writeBack: { status: "failed", attempts: MAX_WRITE_BACK_ATTEMPTS, lastError: expect.stringMatching(/gave up/) },
    });
  });

  it("refuses a draft without items to ship", async () => {
    const emulators = createEmulators();
    const { facts, rate } = await quoteSeededOrder(emulators, "#1001");
    // The pipeline's check refuses it: no draft request can be made, so nothing reaches the service.
    const result = checkForDraft(facts, { quote: rate, lineItems: [], now: new Date() });
    expect(result.ok ? null : result.error).toMatchObject({
      code: "PREFLIGHT_BLOCKED",
      fields: [{ path: "line_items" }],
    });
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });
});
