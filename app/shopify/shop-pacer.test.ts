import { describe, expect, it } from "vitest";

import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { createVirtualClock } from "../../test/helpers/virtual-clock";
import type { AdminGraphqlClient } from "./admin-client";
import { observeAdminClient, operationNameOf, paceAdminClient } from "./paced-admin-client";
import { createShopPacer, MERCHANT_RESERVE_FRACTION } from "./shop-pacer";

const status = (currentlyAvailable: number) => ({ maximumAvailable: 2_000, currentlyAvailable, restoreRate: 100 });
const RESERVE = 2_000 * MERCHANT_RESERVE_FRACTION;

describe("a shop's pacer", () => {
  it("lets the first call go at once and holds the others until its answer tells the bucket", async () => {
    const clock = createVirtualClock();
    const pacer = createShopPacer({ now: clock.now, sleep: clock.sleep });
    const first = await pacer.acquire("OrderForLabel");
    let secondStarted = false;
    const second = pacer.acquire("OrderForLabel").then((done) => {
      secondStarted = true;
      return done;
    });
    await clock.run(new Promise<void>((resolve) => setImmediate(resolve)));
    expect(secondStarted).toBe(false);
    first({ requestedQueryCost: 360, throttleStatus: status(2_000 - 36) });
    (await clock.run(second))(null);
    expect(secondStarted).toBe(true);
  });

  it("waits until the bucket, restoring at the shop's rate, holds the call's cost plus the pages' reserve", async () => {
    const clock = createVirtualClock();
    const pacer = createShopPacer({ now: clock.now, sleep: clock.sleep });
    pacer.learn({ requestedQueryCost: 200, throttleStatus: status(500) }, "OrderForLabel");
    const startedAt = clock.now();
    const done = await clock.run(pacer.acquire("OrderForLabel"));
    // 200 + 600 needed, 500 held: 300 points at 100 a second.
    expect(clock.now() - startedAt).toBe(((200 + RESERVE - 500) / 100) * 1000);
    done({ requestedQueryCost: 200, throttleStatus: status(RESERVE + 180) });
    expect(pacer.estimate()).toEqual(status(RESERVE + 180));
  });

  it("counts the calls still in flight against the bucket", async () => {
    const clock = createVirtualClock();
    const pacer = createShopPacer({ now: clock.now, sleep: clock.sleep });
    pacer.learn({ requestedQueryCost: 400, throttleStatus: status(2_000) }, "Big");
    await clock.run(pacer.acquire("Big"));
    await clock.run(pacer.acquire("Big"));
    await clock.run(pacer.acquire("Big"));
    expect(clock.sleeps).toEqual([]);
    expect(pacer.estimate()?.currentlyAvailable).toBe(800);
    // A fourth would leave 400 of the pages' 600: it waits 2 s for what the three have not given back.
    const startedAt = clock.now();
    await clock.run(pacer.acquire("Big"));
    expect(clock.now() - startedAt).toBe(2_000);
  });

  it("waits for a full bucket, no longer, for a call that asks for more than the pages leave", async () => {
    const clock = createVirtualClock();
    const pacer = createShopPacer({ now: clock.now, sleep: clock.sleep });
    pacer.learn({ requestedQueryCost: 1_900, throttleStatus: status(1_000) }, "Huge");
    const startedAt = clock.now();
    await clock.run(pacer.acquire("Huge"));
    expect(clock.now() - startedAt).toBe(10_000);
  });

  it("never holds a page's call, even with the bucket empty, and learns the bucket from its answer", async () => {
    const clock = createVirtualClock();
    const shopify = createShopifyAdminEmulator({ now: clock.now, generatedOrders: 30 });
    const pacer = createShopPacer({ now: clock.now, sleep: clock.sleep });
    pacer.learn({ requestedQueryCost: null, throttleStatus: status(0) });
    const page = observeAdminClient(shopify.graphql, pacer);
    const answer = await page("query Page { orders(first: 20) { nodes { id } } }");
    expect(((await answer.json()) as { data?: unknown }).data).toBeDefined();
    expect(clock.sleeps).toEqual([]);
    expect(pacer.estimate()).toEqual({ ...status(2_000 - 22) });
  });

  it("names the operation it learns a cost for", () => {
    expect(operationNameOf("query OrderForLabel($id: ID!) { order(id: $id) { id } }")).toBe("OrderForLabel");
    expect(operationNameOf("#graphql\n  mutation CreateFulfillment { x }")).toBe("CreateFulfillment");
    expect(operationNameOf("{ shop { id } }")).toBe("anonymous");
  });
});

describe("two worker processes pacing one shop's bucket", () => {
  it("converge without talking to each other: no background call is refused and every page finds its points", async () => {
    const clock = createVirtualClock();
    const shopify = createShopifyAdminEmulator({ now: clock.now, generatedOrders: 300 });
    type Answer = {
      errors?: { extensions?: { code?: string } }[];
      extensions?: { cost?: { throttleStatus?: { currentlyAvailable: number } } };
    };
    const throttled = { background: 0, pages: 0 };
    const lowest = { bucket: Infinity };
    const send = async (client: AdminGraphqlClient, document: string, kind: keyof typeof throttled) => {
      const body = (await (await client(document)).json()) as Answer;
      if (body.errors?.some((e) => e.extensions?.code === "THROTTLED")) throttled[kind] += 1;
      const left = body.extensions?.cost?.throttleStatus?.currentlyAvailable;
      if (left !== undefined && kind === "background") lowest.bucket = Math.min(lowest.bucket, left);
    };
    // Each process: 8 jobs at once, each reading 12 pages of 50 orders (52 points each).
    const worker = () => {
      const client = paceAdminClient(shopify.graphql, createShopPacer({ now: clock.now, sleep: clock.sleep }));
      return Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 12; i++)
          await send(client, "query Read { orders(first: 50) { nodes { id } } }", "background");
      });
    };
    // A merchant opening a page that asks for 252 points every 5 s, unpaced.
    let working = true;
    const pages = (async () => {
      while (working) {
        await send(shopify.graphql, "query Page { orders(first: 250) { nodes { id } } }", "pages");
        await clock.sleep(5_000);
      }
    })();
    const startedAt = clock.now();
    await clock.run(Promise.all([...worker(), ...worker()]).finally(() => (working = false)));
    await clock.run(pages);

    expect(throttled).toEqual({ background: 0, pages: 0 });
    // 2 × 8 × 12 calls of 52 points, 9,984 in all: once the first 1,400 of the bucket are spent,
    // the rest comes at the restore rate (the pages' 252-point loads take their share too).
    expect(clock.now() - startedAt).toBeGreaterThan(((2 * 8 * 12 * 52 - 2_000) / 100) * 1000);
    expect(lowest.bucket).toBeGreaterThan(0);
  });
});
