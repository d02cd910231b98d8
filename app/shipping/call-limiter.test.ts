import { describe, expect, it } from "vitest";

import { createCallLimiter, limitFetch } from "./call-limiter";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("createCallLimiter", () => {
  it("keeps at most `limit` calls in flight, starts the next as one ends, in arrival order", async () => {
    const limiter = createCallLimiter(2);
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const calls = Array.from({ length: 7 }, (_, i) =>
      limiter.run(async () => {
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
    await expect(limiter.run(async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(await limiter.run(async () => "next")).toBe("next");
  });

  it("holds a request's slot until its answer arrives, not while its body is read or checked", async () => {
    const limiter = createCallLimiter(1);
    let inFlight = 0;
    let most = 0;
    const fetch = limitFetch(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await tick();
      inFlight -= 1;
      return new Response("{}");
    }, limiter);
    const first = await fetch("https://shipping.test/v1/rates");
    // The first answer is in hand and its body unread: the slot is already free for the next request.
    const second = await fetch("https://shipping.test/v1/labels");
    expect(await first.json()).toEqual({});
    expect(await second.json()).toEqual({});
    await Promise.all([fetch("a"), fetch("b"), fetch("c")]);
    expect(most).toBe(1);
  });
});
