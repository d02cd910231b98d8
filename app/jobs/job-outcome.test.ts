import { SessionNotFoundError } from "@shopify/shopify-app-react-router/server";
import { beforeEach, describe, expect, it } from "vitest";

import db from "~/db.server";
import { fromShippingError, fromShopifyError, labelError } from "~/labels/label-errors";
import { createShippingError } from "~/shipping/errors";
import { type AdminGraphqlClient, createShopifyError } from "~/shopify/admin-client";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";

import { findJob } from "../../test/helpers/jobs";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { TEST_SHOP } from "../../test/setup/test-env";
import { type AnyJobDefinition, PermanentJobError } from "../queue/job-queue";
import { type ClaimedJob, createJobWorker, type JobStore } from "../queue/job-worker.server";
import { jobQueueFor } from "../queue/queue.server";
import { JobFailedError, jobOutcomeOf, NotYetJobError, ShopUninstalledError } from "./job-outcome";
import { createAutoDraftJob, createRecheckLabelsJob, enqueueAutoDraft } from "./order-change-jobs.server";
import { createShippingEventJob } from "./shipping-event-jobs.server";

// Issue 22, item 6: one mapping from how an attempt failed to what becomes of the job, used by
// every job. The handlers below are the real ones; the worker loop runs them against a store
// that records what it was told, on a fixed clock, so the backoff is exact.

const NOW = new Date("2030-01-01T00:00:00.000Z");
const FULFILLMENT_GONE = "gid://shopify/Fulfillment/404";

type Recorded = { kind: "done" } | { kind: "failed"; error: string; retryAt: Date | null };
type Logged = { level: "info" | "warn" | "error"; message: string; context: Readonly<Record<string, unknown>> };

/** Runs one job of `definition` (attempt 1) through the worker loop and answers what the store was told. */
async function runThroughWorker(
  definition: AnyJobDefinition,
  payload: unknown,
): Promise<{ recorded: Recorded; logged: Logged[] }> {
  let record: (recorded: Recorded) => void = () => {};
  const recorded = new Promise<Recorded>((resolve) => (record = resolve));
  let handedOut = false;
  const job: ClaimedJob = {
    id: "job-1",
    shop: TEST_SHOP,
    name: definition.name,
    payload,
    attempts: 1,
    maxAttempts: definition.maxAttempts ?? 5,
    token: "token-1",
    leaseUntil: new Date(NOW.getTime() + 60_000),
  };
  const store: JobStore = {
    claimNext: async () => (handedOut ? null : ((handedOut = true), job)),
    complete: async () => (record({ kind: "done" }), true),
    fail: async (_job, error, retryAt) => (record({ kind: "failed", error, retryAt }), true),
    release: async () => true,
    renew: async () => true,
  };
  const logged: Logged[] = [];
  const log = {
    info: (message: string, context: Readonly<Record<string, unknown>> = {}) =>
      logged.push({ level: "info", message, context }),
    warn: (message: string, _error?: unknown, context: Readonly<Record<string, unknown>> = {}) =>
      logged.push({ level: "warn", message, context }),
    error: (message: string, _error?: unknown, context: Readonly<Record<string, unknown>> = {}) =>
      logged.push({ level: "error", message, context }),
  };
  const worker = createJobWorker(store, [definition], {
    pollIntervalMs: 10,
    now: () => NOW,
    log,
    outcomeOf: jobOutcomeOf,
  });
  worker.start();
  try {
    return { recorded: await recorded, logged };
  } finally {
    await worker.stop({ graceMs: 0 });
  }
}

const after = (ms: number) => new Date(NOW.getTime() + ms);
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** Shopify answering every call with HTTP 503. */
const shopifyDown: AdminGraphqlClient = async () => new Response("upstream unavailable", { status: 503 });
/** Shopify saying the fulfillment a tracking event is for no longer exists. */
const fulfillmentGone: AdminGraphqlClient = async () =>
  json({
    data: {
      fulfillmentEventCreate: {
        fulfillmentEvent: null,
        userErrors: [{ field: ["fulfillmentEvent", "fulfillmentId"], message: "Fulfillment does not exist." }],
      },
    },
  });

const uninstalled = { adminFor: async () => null, shippingFor: async () => null };
const FO = "gid://shopify/FulfillmentOrder/1" as FulfillmentOrderGid;
const autoDraftPayload = { fulfillmentOrderGid: FO, trigger: "test" };

// A bought label whose Shopify fulfillment exists (as far as the app knows), and a tracking update for it.
async function boughtLabelWithFulfillment() {
  await insertLabelRow({
    shop: TEST_SHOP,
    status: "purchased",
    serviceLabelId: "lbl_outcome",
    trackingNumbers: JSON.stringify(["1ZOUTCOME"]),
    fulfillmentGid: FULFILLMENT_GONE,
    purchasedAt: NOW,
  });
}
const trackingEvent = {
  eventId: "evt_outcome",
  event: {
    id: "evt_outcome",
    created_at: "2030-01-01T00:00:00Z",
    type: "label.tracking_updated",
    data: {
      label_id: "lbl_outcome",
      tracking_number: "1ZOUTCOME",
      status: "in_transit",
      occurred_at: "2029-12-31T12:00:00Z",
    },
  },
};

async function turnAutoDraftsOn() {
  await db.shopSettings.upsert({
    where: { shop: TEST_SHOP },
    create: { shop: TEST_SHOP, autoDraft: true },
    update: { autoDraft: true },
  });
}

describe("what becomes of a job whose attempt failed, through the real job handlers", () => {
  beforeEach(turnAutoDraftsOn);

  it("retries an auto-draft with backoff when Shopify answers 5xx", async () => {
    const job = createAutoDraftJob({ db, adminFor: async () => shopifyDown, shippingFor: async () => null });
    const { recorded, logged } = await runThroughWorker(job, autoDraftPayload);
    expect(recorded).toMatchObject({ kind: "failed", retryAt: after(20_000) });
    expect(logged).toContainEqual(
      expect.objectContaining({ level: "warn", context: expect.objectContaining({ shop: TEST_SHOP, job: job.name }) }),
    );
  });

  it("retries an auto-draft with backoff when the network fails while the offline token is refreshed", async () => {
    const adminFor = async () => {
      throw new TypeError("fetch failed");
    };
    const { recorded } = await runThroughWorker(createAutoDraftJob({ db, adminFor, shippingFor: async () => null }), {
      ...autoDraftPayload,
    });
    expect(recorded).toMatchObject({ kind: "failed", retryAt: after(20_000) });
  });

  it("retries a tracking update with backoff when Shopify answers 5xx", async () => {
    await boughtLabelWithFulfillment();
    const job = createShippingEventJob({ db, adminFor: async () => shopifyDown, shippingFor: async () => null });
    const { recorded } = await runThroughWorker(job, trackingEvent);
    expect(recorded).toMatchObject({ kind: "failed", retryAt: after(15_000) });
  });

  it("makes a tracking update dead at once when Shopify says its fulfillment no longer exists", async () => {
    await boughtLabelWithFulfillment();
    const job = createShippingEventJob({ db, adminFor: async () => fulfillmentGone, shippingFor: async () => null });
    const { recorded, logged } = await runThroughWorker(job, trackingEvent);
    expect(recorded).toMatchObject({ kind: "failed", retryAt: null });
    expect(recorded.kind === "failed" && recorded.error).toMatch(/shopify\/NOT_FOUND|SHOPIFY_ERROR/);
    expect(logged.filter((line) => line.level === "error")).toHaveLength(1);
  });

  it("still retries a tracking update that comes before its label's purchase", async () => {
    const job = createShippingEventJob({ db, adminFor: async () => fulfillmentGone, shippingFor: async () => null });
    const { recorded } = await runThroughWorker(job, trackingEvent);
    expect(recorded).toMatchObject({ kind: "failed", retryAt: after(15_000) });
  });

  it.each([
    ["auto-draft", createAutoDraftJob({ db, ...uninstalled }), autoDraftPayload],
    [
      "recheck-labels",
      createRecheckLabelsJob({ db, ...uninstalled }),
      { orderGids: ["gid://shopify/Order/1" as OrderGid], fulfillmentOrderGids: [], trigger: "test" },
    ],
    ["shipping-event", createShippingEventJob({ db, ...uninstalled }), trackingEvent],
  ] as const)(
    "drops the %s job of a shop with no offline session, neither retried nor dead",
    async (name, job, payload) => {
      const { recorded, logged } = await runThroughWorker(job, payload);
      expect(recorded).toEqual({ kind: "done" });
      expect(logged).toContainEqual(
        expect.objectContaining({ level: "info", context: expect.objectContaining({ shop: TEST_SHOP, job: name }) }),
      );
      expect(logged.filter((line) => line.level !== "info")).toEqual([]);
    },
  );

  it("ends a dropped job on the app's own queue as done, so the Activity screen shows no dead job", async () => {
    const { jobId } = await enqueueAutoDraft(db, TEST_SHOP, FO, "test");
    const queue = jobQueueFor(db);
    const quiet = { info: () => {}, error: () => {} };
    const worker = queue.createWorker([createAutoDraftJob({ db, ...uninstalled })], {
      pollIntervalMs: 10,
      log: quiet,
      outcomeOf: jobOutcomeOf,
    });
    worker.start();
    try {
      await expect.poll(async () => (await findJob(db, jobId)).status, { timeout: 10_000 }).toBe("done");
    } finally {
      await worker.stop({ graceMs: 0 });
    }
    expect(await queue.listDeadJobs(TEST_SHOP)).toEqual([]);
  });
});

describe("the one mapping from a failure to a job outcome", () => {
  const shopify = (code: Parameters<typeof createShopifyError>[0]) => createShopifyError(code, `test: ${code}`);

  it("drops the job when the shop has no offline session, whoever noticed", () => {
    expect(jobOutcomeOf(new ShopUninstalledError(TEST_SHOP)).kind).toBe("dropped");
    expect(jobOutcomeOf(new SessionNotFoundError("no session")).kind).toBe("dropped");
  });

  it("retries Shopify being throttled, down or unreadable, and a network error it never answered", () => {
    for (const code of ["THROTTLED", "NETWORK_ERROR", "GRAPHQL_ERROR", "INVALID_RESPONSE"] as const) {
      expect(jobOutcomeOf(new JobFailedError(shopify(code))).kind).toBe("retry");
    }
    expect(jobOutcomeOf(new TypeError("fetch failed")).kind).toBe("retry");
    expect(jobOutcomeOf(new Response(null, { status: 502 })).kind).toBe("retry");
    expect(jobOutcomeOf(new Response(null, { status: 429 })).kind).toBe("retry");
  });

  it("makes the job dead for Shopify's refusals, a thing Shopify no longer has, and a thrown 4xx", () => {
    expect(jobOutcomeOf(new JobFailedError(shopify("USER_ERROR"))).kind).toBe("dead");
    expect(jobOutcomeOf(new JobFailedError(shopify("NOT_FOUND"))).kind).toBe("dead");
    expect(jobOutcomeOf(new Response(null, { status: 403 })).kind).toBe("dead");
    expect(jobOutcomeOf(new PermanentJobError("invalid payload")).kind).toBe("dead");
  });

  it("retries what is still on its way", () => {
    expect(jobOutcomeOf(new NotYetJobError("tracking before its purchase")).kind).toBe("retry");
  });

  it("retries a label error only when a later attempt may succeed", () => {
    const shippingErrors = [
      createShippingError({ code: "SERVICE_UNAVAILABLE", status: 503, logMessage: "test: 503" }),
      createShippingError({ code: "RATE_LIMITED", status: 429, logMessage: "test: 429" }),
      createShippingError({ code: "VALIDATION_FAILED", status: 400, logMessage: "test: 400" }),
      createShippingError({ code: "UNAUTHENTICATED", status: 401, logMessage: "test: 401" }),
      createShippingError({ code: "NETWORK_ERROR", logMessage: "test: lost", outcomeUnknown: true }),
    ];
    const errors = [
      ...shippingErrors.map((e) => fromShippingError("test", e)),
      ...(["THROTTLED", "NETWORK_ERROR", "USER_ERROR", "NOT_FOUND"] as const).map((c) =>
        fromShopifyError("test", shopify(c)),
      ),
      labelError("PURCHASE_IN_PROGRESS", "m", "l"),
      labelError("PURCHASE_OUTCOME_UNKNOWN", "m", "l"),
      labelError("INVALID_STATE", "m", "l"),
      labelError("PREFLIGHT_BLOCKED", "m", "l"),
    ];
    // 503, 429, a lost answer, Shopify throttled or unreachable, a purchase in flight or unknown:
    // retried. A refusal, a bad key, Shopify's userErrors or NOT_FOUND, a bad state or input: dead.
    const expected = [
      ...["retry", "retry", "dead", "dead", "retry"],
      ...["retry", "retry", "dead", "dead"],
      ...["retry", "retry", "dead", "dead"],
    ];
    expect(errors.map((error) => jobOutcomeOf(new JobFailedError(error)).kind)).toEqual(expected);
  });
});
