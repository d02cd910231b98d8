import { describe, expect, it } from "vitest";

import { type CallLimiter, createCallLimiter } from "./call-limiter";
import { createShippingClient } from "./client.server";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/** A call holding one of the limiter's slots, as the shipping client holds one per request. */
async function withSlot<T>(limiter: CallLimiter, call: () => Promise<T>): Promise<T> {
  const release = await limiter.acquire();
  try {
    return await call();
  } finally {
    release();
  }
}

describe("createCallLimiter", () => {
  it("keeps at most `limit` calls in flight, starts the next as one ends, in arrival order", async () => {
    const limiter = createCallLimiter(2);
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const calls = Array.from({ length: 7 }, (_, i) =>
      withSlot(limiter, async () => {
        started.push(i);
        inFlight += 1;
        most = Math.max(most, inFlight);
        await tick();
        inFlight -= 1;
        return i;
      }),
    );
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("frees the slot of a call that failed", async () => {
    const limiter = createCallLimiter(1);
    await expect(withSlot(limiter, async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(await withSlot(limiter, async () => "next")).toBe("next");
  });

  it("frees one slot only when a release is called twice", async () => {
    const limiter = createCallLimiter(1);
    const release = await limiter.acquire();
    const second = limiter.acquire();
    const third = limiter.acquire();
    let thirdGotIt = false;
    void third.then(() => (thirdGotIt = true));
    release();
    release();
    await second;
    await tick();
    expect(thirdGotIt).toBe(false);
  });

  it("hands a freed slot to the caller already waiting, not to one who asks after it was freed", async () => {
    const limiter = createCallLimiter(1);
    const order: string[] = [];
    const release = await limiter.acquire();
    const waiting = limiter.acquire().then((next) => (order.push("waiting"), next));
    release();
    const later = limiter.acquire().then((next) => (order.push("later"), next));
    (await waiting)();
    (await later)();
    expect(order).toEqual(["waiting", "later"]);
  });

  it("refuses a limit below one slot", () => {
    expect(() => createCallLimiter(0)).toThrow(RangeError);
  });

  it("gives a shipping request its slot before its timeout starts, and frees it when the answer arrives", async () => {
    const limiter = createCallLimiter(1);
    let inFlight = 0;
    let most = 0;
    const client = createShippingClient({
      baseUrl: "https://shipping.test",
      apiKey: "sk_test",
      // Each answer takes 200 ms; three requests queued for one slot wait up to 400 ms for it, more
      // than the 350 ms an attempt may take: only the wire time may count against that. The
      // margins are wide so a busy machine's late timers do not turn the answer into a timeout.
      timeoutMs: 350,
      maxRetries: 0,
      slots: limiter,
      fetch: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 200));
        inFlight -= 1;
        return Response.json({ id: "lbl_1", status: "draft" });
      },
    });
    const answers = await Promise.all([client.getLabel("lbl_1"), client.getLabel("lbl_1"), client.getLabel("lbl_1")]);
    expect(answers.map((a) => a.ok)).toEqual([true, true, true]);
    expect(most).toBe(1);
  });
});
