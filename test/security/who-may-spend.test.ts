// Who may spend (ADR 13): buying commits the shop's money and ends in a Shopify fulfillment, so
// it is done only for a staff member Shopify lets fulfil orders, as the online access token
// Shopify issues for them says (its associated_user_scope). Buying on the order page, in the
// admin extension, and confirming or retrying a bulk run are refused for anyone else, with a
// message they can act on; nothing is bought or changed. Purchases and runs name the staff member.
// (Counted with the authentication checks: these are the authorization half.)
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";

import db from "~/db.server";

import type { EmulatedStaffMember } from "../../emulator/shopify/auth";
import { server, setupMockServer } from "../helpers/msw";
import { createChecks, recordChecksOfThisFile } from "./support/checks";
import { routeModule } from "./support/requests";
import {
  type Answer,
  asA,
  createWorld,
  expectUnchanged,
  extensionAs,
  getAs,
  invoke,
  ORG_A,
  postFormAs,
  type SeededA,
  seedShopA,
  SHOP_A,
  snapshotDb,
  type World,
} from "./support/world";

setupMockServer();
recordChecksOfThisFile();

const CLERK: EmulatedStaffMember = {
  id: "501",
  firstName: "Casey",
  lastName: "Clerk",
  email: "casey@example.com",
  accountOwner: false,
  permissions: ["orders", "products", "locations"],
};
const PACKER: EmulatedStaffMember = {
  id: "502",
  firstName: "Pat",
  lastName: "Packer",
  email: "pat@example.com",
  accountOwner: false,
  permissions: ["orders", "fulfill_and_ship_orders", "products", "locations"],
};

async function draftBuyBody(labelId: string) {
  const draft = await db.label.findUniqueOrThrow({ where: { id: labelId } });
  return {
    fulfillmentOrderId: draft.fulfillmentOrderGid,
    serviceCode: draft.serviceCode,
    expectedCents: draft.quotedCents,
    currency: draft.currency,
  };
}

/**
 * The ways to spend, as `userId`: buying (order page, admin extension), a bulk run's confirmation
 * and retry, and voiding (ADR 22: it moves money and cancels fulfillments) from the Labels list,
 * a bulk run's page and the admin extension.
 */
async function spendAs(userId: string, a: SeededA) {
  const page = await routeModule("app.orders.$orderId");
  const extension = await routeModule("api.extensions.orders.$orderId.label");
  const run = await routeModule("app.bulk.$runId");
  const labels = await routeModule("app.labels");
  const voidExtension = await routeModule("api.extensions.labels.$labelId.void");
  const ready = await db.bulkRunItem.findMany({ where: { runId: a.reviewRunId, status: "ready" } });
  const inRun = await db.bulkRunItem.findFirstOrThrow({ where: { runId: a.doneRunId, labelId: { not: null } } });
  const as = asA({ userId });
  const voidFields = (labelId: string | null) => ({ intent: "void", labelIds: JSON.stringify([labelId]) });
  return {
    voidFromLabelsList: () => invoke(labels.action, postFormAs("/app/labels", voidFields(a.boughtLabelId), as)),
    voidFromRun: () =>
      invoke(run.action, postFormAs(`/app/bulk/${a.doneRunId}`, voidFields(inRun.labelId), as), {
        runId: a.doneRunId,
      }),
    voidFromExtension: () =>
      invoke(
        voidExtension.action,
        extensionAs(`/api/extensions/labels/${a.boughtLabelId}/void`, as, { method: "POST" }),
        { labelId: a.boughtLabelId },
      ),
    orderPage: () =>
      invoke(
        page.action,
        postFormAs(
          `/app/orders/${a.sharedOrderId}`,
          { intent: "buy", labelId: a.draftLabelId, notifyCustomer: "false" },
          as,
        ),
        { orderId: a.sharedOrderId },
      ),
    extension: async () =>
      invoke(
        extension.action,
        extensionAs(`/api/extensions/orders/${a.sharedOrderId}/label`, as, {
          body: await draftBuyBody(a.draftLabelId),
        }),
        { orderId: a.sharedOrderId },
      ),
    confirmRun: () =>
      invoke(
        run.action,
        postFormAs(
          `/app/bulk/${a.reviewRunId}`,
          {
            intent: "confirm",
            count: String(ready.length),
            totalCents: String(ready.reduce((sum, item) => sum + (item.quotedCents ?? 0), 0)),
          },
          as,
        ),
        { runId: a.reviewRunId },
      ),
    retryRun: () =>
      invoke(run.action, postFormAs(`/app/bulk/${a.doneRunId}`, { intent: "retry-failed" }, as), {
        runId: a.doneRunId,
      }),
  };
}

/** What `run` answered, and what it logged as warnings (expected here: the log says why). */
async function withWarnings(run: () => Promise<Answer>): Promise<{ answer: Answer; warnings: string }> {
  const warnings: string[] = [];
  const spy = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(" "));
  });
  try {
    return { answer: await run(), warnings: warnings.join("\n") };
  } finally {
    spy.mockRestore();
  }
}

const messageOf = (answer: Answer) => (answer.json as { error?: { message?: string } } | null)?.error?.message ?? "";

async function seed(): Promise<{ world: World; a: SeededA }> {
  const world = createWorld();
  const a = await seedShopA(world);
  world.oauthA.setStaffMember(CLERK);
  world.oauthA.setStaffMember(PACKER);
  return { world, a };
}

describe("who may spend", () => {
  it("refuses buying and confirming runs to a staff member Shopify does not let fulfil orders, and changes nothing", async () => {
    const { world, a } = await seed();
    const checks = createChecks();
    const clerk = await spendAs(CLERK.id, a);
    const before = await snapshotDb();
    const books = world.books();
    for (const [path, attempt] of Object.entries(clerk)) {
      const answer = await attempt();
      await checks.run("auth", `${path}: refused to a staff member without "Fulfill and ship orders"`, () => {
        expect(answer.status, answer.text).toBe(403);
        expect(messageOf(answer)).toMatch(/not allowed to fulfill orders.*Nothing was bought.*Fulfill and ship orders/);
        if (path === "extension" || path === "voidFromExtension") {
          expect(answer.json).toMatchObject({ error: { code: "NOT_ALLOWED" } });
          expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("*");
        }
      });
    }
    await world.drainJobs();
    await checks.run("auth", "refused purchases bought nothing and changed nothing", async () => {
      expect(world.books()).toEqual(books);
      expect(world.shippingCalls.filter((c) => c.path.endsWith("/void"))).toEqual([]);
      expectUnchanged(before, await snapshotDb(), "refused purchases");
    });
    // What costs nothing stays open to them: the pages, drafts, and starting a run to review.
    await checks.run(
      "auth",
      "a staff member who may not buy still sees orders and starts runs, named on the run",
      async () => {
        const orders = await routeModule("app.orders._index");
        expect((await invoke(orders.loader, getAs("/app/orders", asA({ userId: CLERK.id })))).status).toBe(200);
        const bulk = await routeModule("app.bulk");
        const order = world.shopifyA.findOrderByName("#1004");
        const started = await invoke(
          bulk.action,
          postFormAs(
            "/app/bulk",
            { orders: JSON.stringify([{ orderGid: order?.id, orderName: "#1004" }]) },
            asA({ userId: CLERK.id }),
          ),
        );
        expect(started.status).toBe(302);
        const runId = started.headers.get("Location")?.split("/").pop() ?? "";
        expect(await db.bulkRun.findUnique({ where: { id: runId } })).toMatchObject({ createdBy: CLERK.id });
      },
    );
    checks.assertAllPassed();
  });

  it("lets a staff member who may fulfil orders buy everywhere, and names them on every purchase and run", async () => {
    const { world, a } = await seed();
    const checks = createChecks();
    const packer = await spendAs(PACKER.id, a);
    const charges = world.shipping.charges(ORG_A).length;

    const bought = await packer.orderPage();
    await checks.run(
      "auth",
      "orderPage: a staff member with the permission buys, and the purchase names them",
      async () => {
        expect(bought.status, bought.text).toBe(200);
        const entries = await db.auditEntry.findMany({
          where: { shop: SHOP_A, labelId: a.draftLabelId, action: "purchase" },
        });
        expect(entries.map((e) => [e.outcome, e.staffMemberId])).toEqual([["ok", PACKER.id]]);
      },
    );

    const confirmed = await packer.confirmRun();
    await world.drainJobs();
    let boughtInRun = 0;
    await checks.run(
      "auth",
      "confirmRun: the run's purchases name who confirmed it, the run who started it",
      async () => {
        expect(confirmed.status, confirmed.text).toBe(200);
        const items = await db.bulkRunItem.findMany({ where: { runId: a.reviewRunId } });
        const labelIds = items.flatMap((i) => (i.labelId ? [i.labelId] : []));
        expect(items.map((i) => i.status)).toEqual(items.map(() => "bought"));
        boughtInRun = labelIds.length;
        expect(boughtInRun).toBeGreaterThan(0);
        const purchases = await db.auditEntry.findMany({
          where: { shop: SHOP_A, labelId: { in: labelIds }, action: "purchase" },
        });
        expect(purchases.map((p) => p.staffMemberId)).toEqual(labelIds.map(() => PACKER.id));
        const authorized = await db.auditEntry.findMany({
          where: { shop: SHOP_A, labelId: { in: labelIds }, action: "authorize" },
        });
        expect(authorized.map((p) => p.staffMemberId)).toEqual(labelIds.map(() => PACKER.id));
        expect(await db.bulkRun.findUnique({ where: { id: a.reviewRunId } })).toMatchObject({
          createdBy: "42",
          confirmedBy: PACKER.id,
        });
      },
    );

    // The extension buys a fresh order's shipment: the draft above is bought already.
    const own = world.shopifyA.createOrder({ kind: "domestic" }).order;
    const orderId = own.id.split("/").pop() ?? "";
    const extension = await routeModule("api.extensions.orders.$orderId.label");
    const state = (
      await invoke(extension.loader, extensionAs(`/api/extensions/orders/${orderId}/label`, asA()), { orderId })
    ).json as { shipment: { fulfillmentOrderId: string } };
    const ratesRoute = await routeModule("api.extensions.orders.$orderId.rates");
    const rates = (
      await invoke(
        ratesRoute.action,
        extensionAs(`/api/extensions/orders/${orderId}/rates`, asA(), {
          body: { fulfillmentOrderId: state.shipment.fulfillmentOrderId },
        }),
        { orderId },
      )
    ).json as { rates: { serviceCode: string; price: { cents: number; currency: string } }[] };
    const [rate] = rates.rates;
    const viaExtension = await invoke(
      extension.action,
      extensionAs(`/api/extensions/orders/${orderId}/label`, asA({ userId: PACKER.id }), {
        body: {
          fulfillmentOrderId: state.shipment.fulfillmentOrderId,
          serviceCode: rate?.serviceCode,
          expectedCents: rate?.price.cents,
          currency: rate?.price.currency,
        },
      }),
      { orderId },
    );
    await checks.run(
      "auth",
      "extension: a staff member with the permission buys, and the purchase names them",
      async () => {
        expect(viaExtension.status, viaExtension.text).toBe(200);
        const label = await db.label.findFirstOrThrow({ where: { shop: SHOP_A, orderGid: own.id } });
        const entries = await db.auditEntry.findMany({ where: { labelId: label.id, action: "purchase" } });
        expect(entries.map((e) => e.staffMemberId)).toEqual([PACKER.id]);
      },
    );
    await checks.run("auth", "the service charged once per label bought", () => {
      expect(world.shipping.charges(ORG_A).length - charges).toBe(1 + boughtInRun + 1);
    });
    checks.assertAllPassed();
  });

  it("fails closed: no staff member, a user Shopify names differently, or Shopify unreachable buys nothing", async () => {
    const { world, a } = await seed();
    const checks = createChecks();
    const before = await snapshotDb();
    const books = world.books();
    const page = await routeModule("app.orders.$orderId");
    const buy = (as: Parameters<typeof asA>[0]) =>
      invoke(
        page.action,
        postFormAs(
          `/app/orders/${a.sharedOrderId}`,
          { intent: "buy", labelId: a.draftLabelId, notifyCustomer: "false" },
          asA(as),
        ),
        { orderId: a.sharedOrderId },
      );

    const nobody = await buy({ userId: null });
    await checks.run("auth", "a session token that names no staff member buys nothing", () => {
      expect(nobody.status).toBe(403);
      expect(messageOf(nobody)).toMatch(/did not say which staff member/);
    });

    const onlineAnswer = (body: unknown, status = 200) =>
      server.use(
        http.post(`https://${SHOP_A}/admin/oauth/access_token`, async ({ request }) => {
          const sent = (await request.json()) as Record<string, string>;
          if (!sent.requested_token_type?.includes("online")) return undefined;
          return HttpResponse.json(body as Record<string, unknown>, { status });
        }),
      );
    onlineAnswer({
      access_token: "shpua_x",
      scope: "write_merchant_managed_fulfillment_orders",
      associated_user_scope: "write_merchant_managed_fulfillment_orders",
      associated_user: { id: 7777, account_owner: true },
    });
    const someoneElse = await withWarnings(() => buy({ userId: PACKER.id }));
    await checks.run("auth", "an online token for another user than the session token's buys nothing", () => {
      expect(someoneElse.answer.status).toBe(403);
      expect(someoneElse.warnings).toMatch(/Shopify names user 7777, the session token 502/);
    });

    onlineAnswer({ errors: "service unavailable" }, 503);
    const down = await withWarnings(() => buy({ userId: PACKER.id }));
    await checks.run("auth", "Shopify unreachable for the check buys nothing, and says so with a reference", () => {
      expect(down.answer.status).toBe(503);
      expect(messageOf(down.answer)).toMatch(/could not confirm with Shopify.*Nothing was bought.*Reference: ERR-/);
      expect(down.warnings).toMatch(/STAFF_CHECK_UNAVAILABLE: online token exchange/);
    });

    onlineAnswer({ error: "invalid_subject_token", error_description: "expired" }, 400);
    const expired = await buy({ userId: PACKER.id });
    await checks.run(
      "auth",
      "a session token Shopify no longer takes is a 401 App Bridge retries, and buys nothing",
      () => {
        expect(expired.status).toBe(401);
        expect(expired.headers.get("X-Shopify-Retry-Invalid-Session-Request")).toBe("1");
      },
    );

    await checks.run("auth", "failing closed bought nothing and changed nothing", async () => {
      expect(world.books()).toEqual(books);
      expectUnchanged(before, await snapshotDb(), "closed failures");
    });
    checks.assertAllPassed();
  });
});
