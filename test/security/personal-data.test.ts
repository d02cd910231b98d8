// Personal data (issue 40, item 8; ADR 28): after a full flow for shop A — drafts, a purchase, a
// bulk run, an address validation, tracking to delivery, a data request, every session route
// driven with A's token and the worker run — no customer's name, street, phone, e-mail or zip is
// in clear in any row of any table (found from Prisma's schema, so a new model is scanned too), nor
// in any log line. The sealed values do hold them (the scan could fail). Every opening is in the
// access log, named and without the data; customers/redact and shop/redact erase the sealed data
// and keep the log.
import { format } from "node:util";

import { describe, expect, it, vi } from "vitest";

import db from "~/db.server";
import { consoleDestination, logger } from "~/logger.server";
import { openPersonal } from "~/settings/personal-data-box.server";
import { purposeOfRequest, runWithAccessContext } from "~/utils/access-context.server";

import type { MailingAddressRecord, OrderRecord } from "../../emulator/shopify/model";
import { setupMockServer } from "../helpers/msw";
import { createWebhookRequest } from "../helpers/shopify-requests";
import { createChecks, recordChecksOfThisFile } from "./support/checks";
import { buildSessionRequest, routeModule, SESSION_REQUESTS } from "./support/requests";
import {
  asA,
  createWorld,
  deliverShippingEvent,
  getAs,
  invoke,
  MODELS,
  ORG_A,
  postFormAs,
  type SeededA,
  seedShopA,
  SHOP_A,
  snapshotDb,
  STAFF_A,
  type World,
} from "./support/world";

setupMockServer();
recordChecksOfThisFile();

/**
 * Every line of the app's logger, whatever its level (under vitest only warnings and errors reach
 * the console), every console call and every write to stdout or stderr from here on.
 */
function captureLogs(): string[] {
  const lines: string[] = [];
  vi.spyOn(consoleDestination, "write").mockImplementation((line: string) => {
    lines.push(line);
  });
  for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, "write").mockImplementation((chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    });
  }
  return lines;
}

const legacyId = (gid: string) => gid.split("/").pop() ?? "";
const CANARY = "personal-data scan: the log is captured";

/** What names, locates or reaches the customer of an order, as Shopify holds it. */
function personalValuesOf(order: OrderRecord): string[] {
  const address: MailingAddressRecord | null = order.shippingAddress;
  const values = [
    address?.name,
    address?.company,
    address?.address1,
    address?.address2,
    address?.phone,
    address?.phone?.replace(/\D/g, ""),
    order.email,
    order.phone,
    address?.zip,
  ];
  return [...new Set(values.flatMap((value) => (value && value.trim().length >= 5 ? [value.trim()] : [])))];
}

/** The values found in `text`: streets, names and e-mails anywhere, digits-only values as whole numbers. */
function foundIn(text: string, values: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return values.filter((value) =>
    /^[\d-]+$/.test(value)
      ? new RegExp(`(^|[^0-9A-Za-z])${value}($|[^0-9A-Za-z])`).test(text)
      : lower.includes(value.toLowerCase()),
  );
}

const asJson = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v));

/** The orders shop A has labels for, with what names their customers. */
async function customersOfA(world: World): Promise<Map<string, string[]>> {
  const gids = new Set((await db.label.findMany({ where: { shop: SHOP_A } })).map((label) => label.orderGid));
  const orders = world.shopifyA.state().orders.filter((order) => gids.has(order.id));
  return new Map(orders.map((order) => [order.id, personalValuesOf(order)]));
}

/** A full flow for shop A beyond the seed: a validation, a delivery, every session route. */
async function exerciseA(world: World, a: SeededA): Promise<void> {
  const page = await routeModule("app.orders.$orderId");
  const own = world.shopifyA.state().orders.find((order) => order.id === a.ownOrderGid);
  const to = own?.shippingAddress;
  if (!own || !to) throw new Error("A's own order has no ship-to");
  const validated = await invoke(
    page.action,
    postFormAs(
      `/app/orders/${a.ownOrderId}`,
      {
        intent: "validate-address",
        fulfillmentOrderId: a.ownFulfillmentOrderGid,
        address: JSON.stringify({
          street1: to.address1,
          street2: to.address2,
          city: to.city,
          state: to.provinceCode,
          zip: to.zip,
          country: to.countryCodeV2,
        }),
      },
      asA(),
    ),
    { orderId: a.ownOrderId },
  );
  expect(validated.status).toBeLessThan(400);
  // The bought label's parcel delivered: its last scan is the recipient's own town and zip.
  const bought = await db.label.findUniqueOrThrow({ where: { id: a.boughtLabelId } });
  const delivered = await deliverShippingEvent(a.endpointKey, a.endpointSecret, {
    id: "evt_personal_delivered",
    type: "label.tracking_updated",
    created_at: new Date().toISOString(),
    organization: ORG_A,
    data: {
      label_id: bought.serviceLabelId,
      tracking_number: (JSON.parse(bought.trackingNumbers) as string[])[0],
      status: "delivered",
      occurred_at: new Date().toISOString(),
      location: { city: to.city, state: to.provinceCode, zip: to.zip, country: to.countryCodeV2 },
    },
  });
  expect(delivered.status).toBe(200);
  // Applied before the session routes below (one of them voids the label).
  await world.drainJobs();
  for (const key of Object.keys(SESSION_REQUESTS)) {
    // Retrying A's dead job (an empty payload) only makes it die again: nothing of a customer's.
    if (key === "app.activity#action") continue;
    const { route, handler, params, request } = await buildSessionRequest(key, a, asA());
    await invoke((await routeModule(route))[handler], request, params);
  }
  await world.drainJobs();
}

describe("personal data", () => {
  it("stores and logs no ship-to field in clear after a full flow, and logs every opening without the data", async () => {
    const logs = captureLogs();
    logger.info({ shop: SHOP_A }, CANARY);
    const checks = createChecks();
    const world = createWorld();
    const a = await seedShopA(world);
    await exerciseA(world, a);
    // A page load as the app's server serves it: the access is the staff member's, for the page.
    const orderPath = `/app/orders/${a.ownOrderId}`;
    const pageModule = await routeModule("app.orders.$orderId");
    const served = await runWithAccessContext(
      { actor: "unauthenticated", purpose: purposeOfRequest("GET", `https://app.test${orderPath}`) },
      () => invoke(pageModule.loader, getAs(orderPath, asA()), { orderId: a.ownOrderId }),
    );
    expect(served.status).toBe(200);

    const customers = await customersOfA(world);
    const values = [...customers.values()].flat();
    const snapshot = await snapshotDb();

    await checks.run(
      "privacy",
      "the flow kept ship-to details of several customers (the scan has something to find)",
      () => {
        expect(customers.size).toBeGreaterThanOrEqual(3);
        expect(values.length).toBeGreaterThanOrEqual(customers.size * 3);
      },
    );
    await checks.run("privacy", "the sealed columns do hold the customers' details", async () => {
      const label = await db.label.findUniqueOrThrow({ where: { id: a.boughtLabelId } });
      const opened = openPersonal(label.request ?? "");
      expect(opened).toMatchObject({ ok: true, legacy: false });
      const own = customers.get(a.ownOrderGid) ?? [];
      expect(foundIn(opened.ok ? opened.value : "", own).length).toBeGreaterThanOrEqual(3);
      expect((snapshot.AddressValidation ?? []).length).toBeGreaterThan(0);
      expect((snapshot.ParcelTracking ?? []).some((row) => typeof row.location === "string")).toBe(true);
    });
    for (const model of MODELS) {
      await checks.run("privacy", `no row of ${model} holds a customer's name, street, phone, e-mail or zip`, () => {
        const leaks = (snapshot[model] ?? []).flatMap((row) => {
          const found = foundIn(asJson(row), values);
          return found.length > 0 ? [`${String(row.id ?? row.shop)}: ${found.join(", ")}`] : [];
        });
        expect(leaks).toEqual([]);
      });
    }
    await checks.run("privacy", "no log line holds a customer's name, street, phone, e-mail or zip", () => {
      // The capture sees the app logger's lines, info included (a canary, logged at the start).
      expect(logs.some((line) => line.includes(CANARY))).toBe(true);
      expect(foundIn(logs.join("\n"), values)).toEqual([]);
    });
    await checks.run("privacy", "every opening is logged: who, which shop, which orders, why", async () => {
      const entries = await db.personalDataAccess.findMany({ where: { shop: SHOP_A } });
      expect(entries.length).toBeGreaterThan(0);
      const page = entries.filter((entry) => entry.purpose === "GET /app/orders/:id");
      expect(page.length).toBeGreaterThan(0);
      expect(page.every((entry) => entry.actor === `staff:${STAFF_A}`)).toBe(true);
      expect(page.some((entry) => (JSON.parse(entry.orderGids) as string[]).includes(a.ownOrderGid))).toBe(true);
      // The worker's openings are the jobs', and the compliance webhook's its own.
      expect(entries.some((entry) => entry.actor.startsWith("job:"))).toBe(true);
      expect(entries.some((entry) => entry.reader === "customers/data_request")).toBe(true);
      for (const entry of entries) {
        expect(Object.keys(entry).sort()).toEqual(["actor", "at", "id", "orderGids", "purpose", "reader", "shop"]);
        for (const gid of JSON.parse(entry.orderGids) as string[]) expect(gid).toMatch(/^gid:\/\/shopify\/Order\/\d+$/);
      }
    });
    checks.assertAllPassed();
  }, 120_000);

  it("erases the sealed ship-to on customers/redact and shop/redact, and keeps the access log", async () => {
    const checks = createChecks();
    const world = createWorld();
    const a = await seedShopA(world);
    const compliance = await routeModule("webhooks.compliance");
    const own = world.shopifyA.state().orders.find((order) => order.id === a.ownOrderGid);
    if (!own) throw new Error("no own order");
    const before = await db.label.findUniqueOrThrow({ where: { id: a.boughtLabelId } });
    const logBefore = await db.personalDataAccess.count({ where: { shop: SHOP_A } });

    const redacted = await invoke(
      compliance.action,
      createWebhookRequest({
        topic: "customers/redact",
        path: "/webhooks/compliance",
        shop: SHOP_A,
        payload: {
          shop_domain: SHOP_A,
          customer: { id: 1, email: own.email, phone: own.phone },
          orders_to_redact: [Number(legacyId(own.id))],
        },
      }),
    );
    expect(redacted.status).toBe(200);
    const after = await db.label.findUniqueOrThrow({ where: { id: a.boughtLabelId } });
    await checks.run(
      "privacy",
      "customers/redact replaces the label's ciphertext, and the new one names no one",
      () => {
        expect(after.request).not.toBe(before.request);
        const opened = openPersonal(after.request ?? "");
        expect(opened).toMatchObject({ ok: true, legacy: false });
        expect(foundIn(opened.ok ? opened.value : "", personalValuesOf(own))).toEqual([]);
        expect(after.shipToKey).toBeNull();
      },
    );
    await checks.run("privacy", "customers/redact keeps the access log, and logs its own opening", async () => {
      const entries = await db.personalDataAccess.findMany({ where: { shop: SHOP_A } });
      expect(entries.length).toBeGreaterThan(logBefore);
      expect(entries.some((entry) => entry.reader === "customers/redact")).toBe(true);
    });

    const erased = await invoke(
      compliance.action,
      createWebhookRequest({
        topic: "shop/redact",
        path: "/webhooks/compliance",
        shop: SHOP_A,
        payload: { shop_id: 1, shop_domain: SHOP_A },
      }),
    );
    expect(erased.status).toBe(200);
    const snapshot = await snapshotDb();
    await checks.run("privacy", "shop/redact leaves no row of the shop but its access log", () => {
      const left = MODELS.filter(
        (model) => model !== "PersonalDataAccess" && (snapshot[model] ?? []).some((row) => row.shop === SHOP_A),
      );
      expect(left).toEqual([]);
      expect((snapshot.PersonalDataAccess ?? []).filter((row) => row.shop === SHOP_A).length).toBeGreaterThan(
        logBefore,
      );
    });
    checks.assertAllPassed();
  }, 120_000);
});
