// A clock for code that waits (pacers, polling): `sleep` schedules a wake-up on this clock instead
// of the real one, and `run` moves time straight to the next wake-up whenever nothing else is left
// to do. Deterministic, and a minute of waiting takes no time.

const settle = async () => {
  // A few turns of the event loop: answers read from a Response body take more than one.
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

export type VirtualClock = {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Every sleep asked for, in order (ms). */
  readonly sleeps: number[];
  /** Runs `work` to its end, jumping the clock to each next wake-up when everything else waits. */
  run: <T>(work: Promise<T>) => Promise<T>;
};

export function createVirtualClock(start = 1_000_000): VirtualClock {
  let now = start;
  const timers: { at: number; order: number; wake: () => void }[] = [];
  const sleeps: number[] = [];
  let order = 0;
  return {
    now: () => now,
    sleeps,
    sleep: (ms) => {
      sleeps.push(ms);
      return new Promise<void>((wake) => timers.push({ at: now + Math.max(0, ms), order: order++, wake }));
    },
    async run(work) {
      let finished = false;
      const watched = work.finally(() => {
        finished = true;
      });
      watched.catch(() => {});
      for (;;) {
        await settle();
        if (finished) return watched;
        timers.sort((a, b) => a.at - b.at || a.order - b.order);
        const next = timers.shift();
        if (!next) continue;
        now = Math.max(now, next.at);
        next.wake();
      }
    },
  };
}
