import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { jobOutcomeOf, NotYetJobError } from "~/jobs/job-outcome";
import { createAutoDraftJob } from "~/jobs/order-change-jobs.server";
import { findActiveLabel } from "~/labels/label-repository.server";
import { createBoxPreset } from "~/settings/settings.server";
import type { FulfillmentOrderGid } from "~/shopify/ids";

import { createTestRule } from "../../test/helpers/auto-draft-rules";
import { listJobs } from "../../test/helpers/jobs";
import { insertLabelRow } from "../../test/helpers/label-rows";
import {
  countingFetch,
  createEmulators,
  createTestShippingClient,
  DEMO_ORG,
  TEST_LABEL_SHOP,
} from "../../test/helpers/labels";
import { draftFulfillmentOrderAutomatically } from "./auto-draft.server";
import { listAutoDraftOutcomesForOrders } from "./auto-draft-outcomes.server";
import type { AutoDraftRule } from "./auto-draft-rules";

const SHOP = TEST_LABEL_SHOP;

const rule = createTestRule;

async function turnOn(rules: AutoDraftRule[] = []) {
  const data = { autoDraft: true, autoDraftRules: JSON.stringify(rules) };
  await db.shopSettings.upsert({ where: { shop: SHOP }, create: { shop: SHOP, ...data }, update: data });
}

function setUp() {
  const emulators = createEmulators();
  const shipping = createTestShippingClient(emulators.shipping);
  const foOf = (name: string, index = 0) => {
    const id = emulators.shopify.findOrderByName(name)?.fulfillmentOrders[index]?.id;
    if (!id) throw new Error(`no fulfillment order ${index} on ${name}`);
    return id as FulfillmentOrderGid;
  };
  const run = (name: string, options: { shipping?: typeof shipping | null; index?: number } = {}) =>
    draftFulfillmentOrderAutomatically(
      {
        db,
        shop: SHOP,
        admin: emulators.shopify.graphql,
        shipping: options.shipping === undefined ? shipping : options.shipping,
      },
      foOf(name, options.index),
    );
  /** #1001's first fulfillment order with a "creating" slot of another attempt, leased until `leaseUntil`. */
  const insertCreating = async (claimToken: string, leaseUntil: Date) => {
    const order = emulators.shopify.findOrderByName("#1001");
    if (!order) throw new Error("no #1001");
    await insertLabelRow({
      shop: SHOP,
      orderGid: order.id,
      orderName: order.name,
      fulfillmentOrderGid: foOf("#1001"),
      activeKey: `${SHOP}:${foOf("#1001")}`,
      status: "creating",
      claimToken,
      leaseUntil,
    });
  };
  const job = createAutoDraftJob({
    db,
    adminFor: async () => emulators.shopify.graphql,
    shippingFor: async () => createTestShippingClient(emulators.shipping),
  });
  /** One attempt of the auto-draft job for #1001, as the worker runs it. */
  const runJob = (jobId: string, deadline = new Date(Date.now() + 60_000)) =>
    job.run(
      { fulfillmentOrderGid: foOf("#1001"), trigger: "test" },
      { jobId, shop: SHOP, attempt: 1, maxAttempts: 8, deadline, signal: new AbortController().signal },
    );
  return { emulators, shipping, foOf, run, insertCreating, runJob };
}

describe("automatic drafts", () => {
  it("does nothing while the shop has them off", async () => {
    const { emulators, run } = setUp();
    expect(await run("#1001")).toEqual({ ok: true, value: { status: "skipped", reason: "automatic drafts are off" } });
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("drafts the cheapest rate without rules, never buys, and drafts once however often it runs", async () => {
    const { emulators, foOf, run } = setUp();
    await turnOn();

    const first = await run("#1001");
    const second = await run("#1001");

    expect(first).toMatchObject({ ok: true, value: { status: "drafted", note: "No rule matched: cheapest rate." } });
    expect(second).toMatchObject({ ok: true, value: { status: "skipped", reason: "it already has a label" } });
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(emulators.shipping.charges(DEMO_ORG)).toEqual([]);
    const label = await findActiveLabel(db, SHOP, foOf("#1001"));
    expect(label).toMatchObject({ status: "draft", orderName: "#1001" });
    expect(label?.shipToKey).toEqual(expect.any(String));
    const [outcome] = await listAutoDraftOutcomesForOrders(db, SHOP, [label?.orderGid ?? ""]);
    expect(outcome).toMatchObject({ status: "drafted", labelId: label?.id, problems: [] });
  });

  it("takes over a draft slot a dead request left 'creating' once its lease is over, and drafts once", async () => {
    const { emulators, foOf, run, insertCreating } = setUp();
    await turnOn();
    // The service drafted, then the database write failed: the slot stays "creating" without a service id.
    await insertCreating("dead-request", new Date(Date.now() - 1_000));
    expect(await run("#1001")).toMatchObject({ ok: true, value: { status: "drafted" } });
    expect(await findActiveLabel(db, SHOP, foOf("#1001"))).toMatchObject({ status: "draft" });
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
    expect(await run("#1001")).toMatchObject({ ok: true, value: { status: "skipped" } });
    expect(emulators.shipping.charges(DEMO_ORG)).toEqual([]);
  });

  it("waits, drafting nothing and ending nothing, while a creating slot's lease lasts (its attempt may have died)", async () => {
    const { emulators, foOf, run, insertCreating, runJob } = setUp();
    await turnOn();
    // An attempt claimed the slot, then lost its database connection: the job is retried while
    // the lease still holds. A skip here would complete the job and leave the slot "creating".
    const leaseUntil = new Date(Date.now() + 30_000);
    await insertCreating("attempt-whose-connection-died", leaseUntil);
    expect(await run("#1001")).toMatchObject({ ok: true, value: { status: "waiting", until: leaseUntil } });
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(await findActiveLabel(db, SHOP, foOf("#1001"))).toMatchObject({ status: "creating" });

    // The job is retried after its backoff, not completed.
    const thrown = await runJob("job-1", leaseUntil).then(
      () => null,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(NotYetJobError);
    expect(jobOutcomeOf(thrown).kind).toBe("retry");
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("takes the first matching rule: the fastest rate for Canada, in the rule's box", async () => {
    const { emulators, foOf, run } = setUp();
    // The shop's default box is larger: the rule's box must be the one used.
    const standard = await createBoxPreset(db, SHOP, {
      name: "Standard",
      length: 14,
      width: 10,
      height: 6,
      dimensionUnit: "in",
      tareWeight: 0.3,
      maxWeight: 40,
      weightUnit: "lb",
      isDefault: true,
    });
    if (!standard.ok) throw new Error(standard.error.logMessage);
    const small = await createBoxPreset(db, SHOP, {
      name: "Small mailer",
      length: 9,
      width: 6,
      height: 2,
      dimensionUnit: "in",
      tareWeight: 0.1,
      maxWeight: 20,
      weightUnit: "lb",
      isDefault: false,
    });
    if (!small.ok) throw new Error(small.error.logMessage);
    await turnOn([
      rule({ destination: "domestic", choice: "service", serviceCode: "svc_ups_ground" }),
      rule({ destination: "countries", countries: ["CA"], choice: "fastest", boxPresetId: small.value.id }),
    ]);

    const result = await run("#1003");

    expect(result).toMatchObject({ ok: true, value: { status: "drafted", note: "Rule 2: fastest rate." } });
    const label = await findActiveLabel(db, SHOP, foOf("#1003"));
    const request = label?.request as { parcel?: { length: number }; parcels?: { length: number }[] };
    expect(request.parcel?.length ?? request.parcels?.[0]?.length).toBe(9);
    // The fastest of what the service quoted for this shipment.
    const quoted = await createTestShippingClient(emulators.shipping).getRates({
      from_address: (label?.request as { from_address: never }).from_address,
      to_address: (label?.request as { to_address: never }).to_address,
      parcel: (request.parcel ?? request.parcels?.[0]) as never,
    });
    if (!quoted.ok) throw new Error(quoted.error.logMessage);
    const fastestDays = Math.min(...quoted.value.rates.map((r) => r.delivery_days ?? Infinity));
    const chosen = quoted.value.rates.find((r) => r.service_code === label?.serviceCode);
    expect(chosen?.delivery_days).toBe(fastestDays);
  });

  it("falls back to the cheapest rate, with a note, when the rule's service was not offered", async () => {
    const { foOf, run } = setUp();
    await turnOn([rule({ destination: "domestic", choice: "service", serviceCode: "svc_fedex_2day" })]);

    const result = await run("#1012"); // 77.5 lb in several boxes: only UPS Ground ships several boxes

    expect(result).toMatchObject({ ok: true, value: { status: "drafted" } });
    if (result.ok && result.value.status === "drafted") {
      expect(result.value.note).toMatch(/FedEx 2Day was not offered for this shipment/);
    }
    expect((await findActiveLabel(db, SHOP, foOf("#1012")))?.serviceCode).toBe("svc_ups_ground");
  });

  it("stores the problems of a shipment preflight blocks, and drafts nothing", async () => {
    const { emulators, foOf, run } = setUp();
    await turnOn();
    const counting = countingFetch(emulators.shipping);
    const result = await run("#1014", {
      shipping: createTestShippingClient(emulators.shipping, undefined, counting.fetch),
    });

    expect(result).toMatchObject({ ok: true, value: { status: "blocked" } });
    // Checked before anything is sent: not even a quote.
    expect(counting.requests).toEqual([]);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(await findActiveLabel(db, SHOP, foOf("#1014"))).toBeNull();
    const order = emulators.shopify.findOrderByName("#1014");
    const [outcome] = await listAutoDraftOutcomesForOrders(db, SHOP, [order?.id ?? ""]);
    expect(outcome?.status).toBe("blocked");
    expect(outcome?.problems.length).toBeGreaterThan(0);
    expect(outcome?.problems.every((p) => p.message.length > 0)).toBe(true);
  });

  it("asks for the API key instead of drafting when the shop has none", async () => {
    const { emulators, run } = setUp();
    await turnOn();

    const result = await run("#1001", { shipping: null });

    expect(result).toMatchObject({
      ok: true,
      value: { status: "blocked", problems: [{ path: "settings.apiKey", message: expect.stringMatching(/API key/) }] },
    });
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(0);
  });

  it("leaves pickup orders and held fulfillment orders alone, reporting nothing", async () => {
    const { emulators, foOf, run } = setUp();
    await turnOn();
    const held = emulators.shopify.findFulfillmentOrder(foOf("#1002"));
    if (!held) throw new Error("no fulfillment order on #1002");
    held.status = "ON_HOLD";

    expect(await run("#1018")).toMatchObject({ ok: true, value: { status: "skipped" } });
    expect(await run("#1002")).toMatchObject({
      ok: true,
      value: { status: "skipped", reason: "fulfillment order is ON_HOLD" },
    });
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(0);
    expect(await db.autoDraftOutcome.count()).toBe(0);
  });

  it("retries (an error, nothing stored) when the shipping service is down", async () => {
    const { emulators, run } = setUp();
    await turnOn();
    emulators.shipping.setFaults({ failures: [{ endpoint: "POST /v1/rates", kind: "unavailable", times: 10 }] });

    const result = await run("#1001");

    expect(result.ok).toBe(false);
    expect(await db.autoDraftOutcome.count()).toBe(0);
  });

  // Issue 40, item 6: after a lost draft answer the job ends and a later one drafts the shipment
  // once the quiet is over, instead of a day later or never.
  it("after a lost draft answer, tells the list when it tries again and queues that try", async () => {
    const { emulators, foOf, runJob } = setUp();
    await turnOn();
    emulators.shipping.setFaults({ failures: [{ endpoint: "POST /v1/labels", kind: "lost_after_charge", times: 1 }] });
    // The lost answer is an attempt's failure (retried); its retry finds the shipment held.
    await expect(runJob("job-1")).rejects.toThrow();
    await runJob("job-1");

    const [held] = await listJobs(db, { name: "auto-draft", status: "queued" });
    expect(held?.payload).toMatchObject({ fulfillmentOrderGid: foOf("#1001"), trigger: "after-lost-answer" });
    const minutes = ((held?.runAt.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4);
    expect(minutes).toBeLessThanOrEqual(5);
    const order = emulators.shopify.findOrderByName("#1001");
    const [outcome] = await listAutoDraftOutcomesForOrders(db, SHOP, [order?.id ?? ""]);
    expect(outcome?.problems[0]?.message).toMatch(/tries again at \d\d:\d\d UTC/);
    expect(emulators.shipping.labelsCreated(DEMO_ORG)).toBe(1);
  });
});
