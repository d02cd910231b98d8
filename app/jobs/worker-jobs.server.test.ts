import { SessionNotFoundError } from "@shopify/shopify-app-react-router/server";
import { describe, expect, it } from "vitest";

import db from "~/db.server";
import type { FulfillmentOrderGid } from "~/shopify/ids";

import { TEST_SHOP } from "../../test/setup/test-env";
import { jobOutcomeOf, ShopUninstalledError } from "./job-outcome";
import { createAutoDraftJob } from "./order-change-jobs.server";
import { createAdminFor, createWorkerJobs } from "./worker-jobs.server";

const context = {
  jobId: "job-1",
  shop: TEST_SHOP,
  attempt: 1,
  maxAttempts: 5,
  deadline: new Date(Date.now() + 60_000),
  signal: new AbortController().signal,
};
const payload = { fulfillmentOrderGid: "gid://shopify/FulfillmentOrder/1" as FulfillmentOrderGid, trigger: "test" };

describe("a shop's Admin API for a job", () => {
  it("is none only when the shop has no offline session: the app was uninstalled, and the job is dropped", async () => {
    const adminFor = createAdminFor(async (shop) => {
      throw new SessionNotFoundError(`Could not find a session for shop ${shop}`);
    });
    expect(await adminFor(TEST_SHOP)).toBeNull();
    const job = createAutoDraftJob({ db, adminFor, shippingFor: async () => null });
    const failure = await job.run(payload, context).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ShopUninstalledError);
    expect(jobOutcomeOf(failure).kind).toBe("dropped");
  });

  it("fails the attempt, to be retried, when Shopify fails while the token is refreshed", async () => {
    const blip = new Error("fetch failed: ECONNRESET while refreshing the offline token");
    const adminFor = createAdminFor(async () => {
      throw blip;
    });
    await expect(adminFor(TEST_SHOP)).rejects.toBe(blip);
    const job = createAutoDraftJob({ db, adminFor, shippingFor: async () => null });
    const failure = await job.run(payload, context).catch((error: unknown) => error);
    expect(failure).toBe(blip);
    expect(jobOutcomeOf(failure).kind).toBe("retry");
  });
});

describe("the worker's schedules", () => {
  it("include the ship-to retention sweep, so finished labels' addresses are redacted on time", () => {
    const { schedules } = createWorkerJobs(db, { enqueue: async () => ({ jobId: "x" }) } as never);
    expect(schedules.map((s) => s.name)).toContain("ship-to-retention");
  });
});
