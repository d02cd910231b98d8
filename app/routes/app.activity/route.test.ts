import { describe, expect, it } from "vitest";

import type { ActivityPage } from "~/routes/app.activity/activity.server";
import { listActivity } from "~/routes/app.activity/activity.server";

import { callRoute, createAdminFormRequest } from "../../../test/helpers/admin-form-requests";
import { createDeadJob, findJob } from "../../../test/helpers/jobs";
import { mockTokenExchange, setupMockServer } from "../../../test/helpers/msw";
import { createAdminRequest } from "../../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../../test/setup/test-env";
import db from "../../db.server";
import { recordAudit } from "../../labels/audit.server";
import { action, loader } from "./route";

setupMockServer();

async function load(path = "/app/activity") {
  mockTokenExchange();
  return (await callRoute(loader, createAdminRequest(path))) as ActivityPage;
}

describe("activity loader", () => {
  it("lists billable calls newest first with amount, request id, staff member and order", async () => {
    await recordAudit(db, {
      shop: TEST_SHOP,
      action: "validate",
      outcome: "ok",
      amountCents: 5,
      requestId: "req_1",
      staffMemberId: "42",
      orderGid: "gid://shopify/Order/5001",
    });
    await recordAudit(db, {
      shop: TEST_SHOP,
      action: "purchase",
      outcome: "unknown",
      amountCents: null,
      requestId: "req_2",
      staffMemberId: null,
      orderGid: "gid://shopify/Order/5002",
    });
    // Not billable, another shop: neither is listed.
    await recordAudit(db, { shop: TEST_SHOP, action: "fulfill", outcome: "ok" });
    await recordAudit(db, { shop: "other-shop.myshopify.com", action: "purchase", outcome: "ok", amountCents: 999 });

    const page = await load();
    expect(
      page.entries.map((e) => [e.action, e.outcome, e.amountCents, e.requestId, e.staffMemberId, e.orderNumericId]),
    ).toEqual([
      ["purchase", "unknown", null, "req_2", null, "5002"],
      ["validate", "ok", 5, "req_1", "42", "5001"],
    ]);
  });

  it("totals what was charged this month: charged and recovered, not refused or unconfirmed, not last month", async () => {
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    const entries = [
      { action: "purchase", outcome: "ok", amountCents: 1210 },
      { action: "purchase", outcome: "recovered", amountCents: 990 },
      { action: "validate", outcome: "ok", amountCents: 5 },
      { action: "purchase", outcome: "error", amountCents: 1500 },
      { action: "purchase", outcome: "unknown", amountCents: 800 },
    ] as const;
    for (const entry of entries) await recordAudit(db, { shop: TEST_SHOP, ...entry });
    await db.auditEntry.create({
      data: { shop: TEST_SHOP, action: "purchase", outcome: "ok", amountCents: 7000, createdAt: lastMonth },
    });

    const page = await load();
    expect(page.monthTotal.totals).toEqual([{ currency: "USD", chargedCents: 2205, calls: 3 }]);
    expect(page.monthTotal.month).toBe(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10),
    );
    expect(page.entries).toHaveLength(6);
  });

  it("pages newest first without repeating an entry", async () => {
    for (let i = 0; i < 30; i++) {
      await db.auditEntry.create({
        data: {
          shop: TEST_SHOP,
          action: "validate",
          outcome: "ok",
          amountCents: 5,
          requestId: `req_${i}`,
          createdAt: new Date(Date.now() - (30 - i) * 1000),
        },
      });
    }
    const first = await load();
    const second = await load("/app/activity?page=2");
    expect(first.entries[0]?.requestId).toBe("req_29");
    expect([first.entries.length, first.hasNextPage, second.entries.length, second.hasNextPage]).toEqual([
      25,
      true,
      5,
      false,
    ]);
    expect(new Set([...first.entries, ...second.entries].map((e) => e.id)).size).toBe(30);
  });

  it("renders an empty month as zero", async () => {
    const page = await load("/app/activity?page=abc");
    expect(page).toMatchObject({ page: 1, entries: [], monthTotal: { totals: [] } });
  });

  it("counts the month in UTC at the month's edges", async () => {
    await db.auditEntry.create({
      data: {
        shop: TEST_SHOP,
        action: "purchase",
        outcome: "ok",
        amountCents: 100,
        createdAt: new Date("2026-10-31T23:59:59Z"),
      },
    });
    await db.auditEntry.create({
      data: {
        shop: TEST_SHOP,
        action: "purchase",
        outcome: "ok",
        amountCents: 200,
        createdAt: new Date("2026-11-01T00:00:00Z"),
      },
    });
    const page = await listActivity(db, TEST_SHOP, { now: new Date("2026-11-30T23:00:00Z") });
    expect(page.monthTotal).toEqual({
      month: "2026-11-01",
      totals: [{ currency: "USD", chargedCents: 200, calls: 1 }],
    });
  });

  it("answers a request with an expired session token with 401", async () => {
    const result = await callRoute(loader, createAdminRequest("/app/activity", { expiresIn: -120 }));
    expect((result as Response).status).toBe(401);
  });

  it("lists the shipping events about labels of no order of this shop, and only those", async () => {
    await db.shippingEvent.createMany({
      data: [
        {
          shop: TEST_SHOP,
          eventId: "evt_a",
          type: "label.purchased",
          serviceLabelId: "lbl_x",
          outcome: "not_ours",
          detail: "label lbl_x names order 99, not one of this shop's",
        },
        { shop: TEST_SHOP, eventId: "evt_b", type: "label.purchased", serviceLabelId: "lbl_y", outcome: "applied" },
        { shop: "other.myshopify.com", eventId: "evt_c", type: "label.purchased", outcome: "not_ours" },
      ],
    });
    const page = (await load()) as ActivityPage & { foreignEvents: { eventId: string; detail: string | null }[] };
    expect(page.foreignEvents).toMatchObject([{ eventId: "evt_a", detail: expect.stringMatching(/order 99/) }]);
  });

  it("lists background work that gave up, and queues it again on Retry, for this shop only", async () => {
    mockTokenExchange();
    const dead = { id: await createDeadJob(db, TEST_SHOP, "Shopify answered HTTP 503") };
    const other = { id: await createDeadJob(db, "other-shop.myshopify.com", "Shopify answered HTTP 503") };
    const page = (await callRoute(loader, createAdminRequest("/app/activity"))) as Awaited<ReturnType<typeof loader>>;
    expect(page.deadJobs.map((job) => job.id)).toEqual([dead.id]);

    const retried = await callRoute(
      action,
      createAdminFormRequest("/app/activity", { intent: "retry-job", jobId: dead.id }),
    );
    expect(retried).toEqual({ ok: true });
    expect((await findJob(db, dead.id)).status).toBe("queued");

    const foreign = await callRoute(
      action,
      createAdminFormRequest("/app/activity", { intent: "retry-job", jobId: other.id }),
    );
    expect((foreign as Response).status).toBe(404);
    expect((await findJob(db, other.id)).status).toBe("dead");
  });
});
