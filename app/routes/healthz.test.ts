import { describe, expect, it, vi } from "vitest";

import db from "../db.server";
import { loader } from "./healthz";

describe("/healthz", () => {
  it("answers 200 when the database answers, and 503 when it does not", async () => {
    const healthy = await loader();
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({ status: "ok" });

    vi.spyOn(db, "$queryRawUnsafe").mockRejectedValueOnce(new Error("connection refused"));
    const sick = await loader();
    expect(sick.status).toBe(503);
    expect(await sick.json()).toEqual({ status: "database unreachable" });
  });
});
