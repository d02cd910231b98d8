import { describe, expect, it } from "vitest";

import { createShopifyAdminEmulator, type ShopifyAdminEmulator } from "./emulator";
import { parseShopifyPlan, planFromArgs, type ShopifyPlan } from "./rate-limit";

// The figures as Shopify publishes them (restore rates:
// https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits) and reports them in
// `throttleStatus.maximumAvailable` (bucket sizes), written out here rather than imported, so a
// wrong table in rate-limit.ts fails these tests.
const PUBLISHED: readonly { plan: ShopifyPlan; maximumAvailable: number; restoreRate: number }[] = [
  { plan: "standard", maximumAvailable: 2_000, restoreRate: 100 },
  { plan: "advanced", maximumAvailable: 4_000, restoreRate: 200 },
  { plan: "plus", maximumAvailable: 20_000, restoreRate: 1_000 },
  { plan: "enterprise", maximumAvailable: 40_000, restoreRate: 2_000 },
];

// 250 orders on one page: requested 2 + 250 × 1, and with more than 250 orders in the store the
// actual cost is the same, so each answered query keeps all 252 points.
const PAGE = "{ orders(first: 250) { nodes { id } } }";
const PAGE_COST = 252;

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: { data?: any; errors?: { extensions?: { code?: string } }[]; extensions?: { cost?: any } };
}

async function send(emulator: ShopifyAdminEmulator, query = PAGE): Promise<Answer> {
  const response = await emulator.graphql(query);
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

const isThrottled = (answer: Answer) => answer.body.errors?.some((e) => e.extensions?.code === "THROTTLED") ?? false;

describe("Shopify plan limits", () => {
  it.each(PUBLISHED)(
    "gives a store on the $plan plan a bucket of $maximumAvailable points restored at $restoreRate a second, throttles when it is empty and clears at that rate",
    async ({ plan, maximumAvailable, restoreRate }) => {
      let now = 1_000_000;
      const emulator = createShopifyAdminEmulator({ plan, generatedOrders: 260, now: () => now });
      expect(emulator.plan).toBe(plan);

      const first = await send(emulator);
      expect(first.body.data?.orders.nodes).toHaveLength(250);
      expect(first.body.extensions?.cost).toEqual({
        requestedQueryCost: PAGE_COST,
        actualQueryCost: PAGE_COST,
        throttleStatus: { maximumAvailable, currentlyAvailable: maximumAvailable - PAGE_COST, restoreRate },
      });

      // Drain the bucket with the clock stopped: every page that fits is answered, the next is not.
      const fits = Math.floor(maximumAvailable / PAGE_COST);
      for (let i = 1; i < fits; i++) expect(isThrottled(await send(emulator))).toBe(false);
      const left = maximumAvailable - fits * PAGE_COST;
      const throttled = await send(emulator);
      expect(throttled.status).toBe(200);
      expect(throttled.body.data).toBeUndefined();
      expect(isThrottled(throttled)).toBe(true);
      expect(throttled.body.extensions?.cost).toEqual({
        requestedQueryCost: PAGE_COST,
        actualQueryCost: null,
        throttleStatus: { maximumAvailable, currentlyAvailable: left, restoreRate },
      });

      // The page fits again once the restore rate has put back what was missing, not a moment before.
      const waitMs = ((PAGE_COST - left) / restoreRate) * 1000;
      now += waitMs - 1;
      expect(isThrottled(await send(emulator))).toBe(true);
      now += 1;
      const cleared = await send(emulator);
      expect(isThrottled(cleared)).toBe(false);
      expect(cleared.body.extensions?.cost.throttleStatus).toEqual({
        maximumAvailable,
        currentlyAvailable: 0,
        restoreRate,
      });

      // A second later the bucket holds one second of the restore rate, and never more than its size.
      now += 1_000;
      expect(emulator.throttleStatus()).toEqual({ maximumAvailable, currentlyAvailable: restoreRate, restoreRate });
      now += 3_600_000;
      expect(emulator.throttleStatus().currentlyAvailable).toBe(maximumAvailable);
    },
  );

  it("puts a store on the Standard plan when no plan is given", () => {
    const emulator = createShopifyAdminEmulator();
    expect(emulator.plan).toBe("standard");
    expect(emulator.throttleStatus()).toEqual({ maximumAvailable: 2_000, currentlyAvailable: 2_000, restoreRate: 100 });
  });

  it("lets the throttle option override the plan's bucket size or restore rate", () => {
    const slower = createShopifyAdminEmulator({ plan: "plus", throttle: { restoreRate: 10 } });
    expect(slower.rateLimit).toEqual({ maximumAvailable: 20_000, restoreRate: 10 });
    const smaller = createShopifyAdminEmulator({ throttle: { maximumAvailable: 100, restoreRate: 10 } });
    expect(smaller.throttleStatus()).toEqual({ maximumAvailable: 100, currentlyAvailable: 100, restoreRate: 10 });
  });

  it("never throttles with throttling off, whatever the plan", async () => {
    const emulator = createShopifyAdminEmulator({ plan: "standard", throttle: false, generatedOrders: 260 });
    for (let i = 0; i < 10; i++) expect(isThrottled(await send(emulator))).toBe(false);
  });

  it("reports the plan's bucket in a THROTTLED answer forced by a test", async () => {
    const emulator = createShopifyAdminEmulator({ plan: "advanced" });
    emulator.failNextRequest("THROTTLED");
    const answer = await send(emulator, "{ shop { name } }");
    expect(isThrottled(answer)).toBe(true);
    expect(answer.body.extensions?.cost.throttleStatus).toEqual({
      maximumAvailable: 4_000,
      currentlyAvailable: 12,
      restoreRate: 200,
    });
  });

  it("reads a plan's name from the command line in any case and refuses other names", () => {
    expect(parseShopifyPlan("Plus")).toBe("plus");
    expect(parseShopifyPlan(" enterprise ")).toBe("enterprise");
    expect(parseShopifyPlan("basic")).toBeUndefined();
    expect(parseShopifyPlan(undefined)).toBeUndefined();
  });

  it("finds --plan among a command's arguments and refuses a flag without a plan", () => {
    expect(planFromArgs(["--orders", "5", "--plan", "advanced"])).toBe("advanced");
    expect(planFromArgs(["--plan=plus"])).toBe("plus");
    expect(planFromArgs(["--orders", "5"])).toBeUndefined();
    expect(() => planFromArgs(["--plan"])).toThrow(/standard, advanced, plus, enterprise/);
    expect(() => planFromArgs(["--plan", "shopify"])).toThrow(/got shopify/);
  });
});
