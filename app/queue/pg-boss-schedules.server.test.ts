import { describe, expect, it } from "vitest";

import { LABEL_RECOVERY_EVERY_MS } from "../jobs/label-recovery.server";
import { SHIP_TO_RETENTION_EVERY_MS } from "../jobs/retention-jobs.server";
import { cronFor, scheduleJobDefinition, scheduleQueueName } from "./pg-boss-schedules.server";

describe("a schedule's cron expression", () => {
  it("says the same interval in minutes or hours", () => {
    expect(cronFor(60_000)).toBe("* * * * *");
    expect(cronFor(5 * 60_000)).toBe("*/5 * * * *");
    expect(cronFor(60 * 60_000)).toBe("0 * * * *");
    expect(cronFor(6 * 60 * 60_000)).toBe("0 */6 * * *");
    expect(cronFor(24 * 60 * 60_000)).toBe("0 0 * * *");
  });

  it("covers every interval the worker keeps", () => {
    for (const everyMs of [LABEL_RECOVERY_EVERY_MS, 5 * 60_000, 60 * 60_000, SHIP_TO_RETENTION_EVERY_MS]) {
      expect(() => cronFor(everyMs)).not.toThrow();
    }
  });

  it("refuses an interval cron would drift from", () => {
    for (const everyMs of [30_000, 90_000, 7 * 60_000, 45 * 60_000, 5 * 60 * 60_000, 48 * 60 * 60_000]) {
      expect(() => cronFor(everyMs), String(everyMs)).toThrow(/no cron expression/);
    }
  });
});

describe("a schedule's job", () => {
  it("has its own queue, apart from the job kind of the same name, and one attempt per tick", async () => {
    let runs = 0;
    const definition = scheduleJobDefinition({ name: "label-recovery", everyMs: 60_000, run: async () => void runs++ });
    expect(definition.name).toBe("schedule.label-recovery");
    expect(scheduleQueueName({ name: "label-recovery" })).toBe(definition.name);
    expect(definition.maxAttempts).toBe(1);
    expect(definition.payloadSchema.safeParse(null).success).toBe(true);
    await definition.run(null, {} as never);
    expect(runs).toBe(1);
  });
});
