import { beforeEach, describe, expect, it, vi } from "vitest";

import { databaseKindOf } from "~/db/database-kind.server";
import { listCustomerDataRequests } from "~/privacy/privacy.server";
import { openPersonalOrNull } from "~/settings/personal-data-box.server";
import { toAddressKey } from "~/shipments/validate-address.server";

import { enqueueTestJob } from "../../test/helpers/jobs";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { routeArgs } from "../../test/helpers/route-args";
import { createWebhookRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action } from "./webhooks.compliance";

const OTHER_SHOP = "other-shop.myshopify.com";
const BAD_HMAC = "bm90LXRoZS1zaWduYXR1cmU=";

async function callAction(request: Request): Promise<Response> {
  try {
    return await action(routeArgs(request) as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const ADA = {
  name: "Ada Lovelace",
  company: "Analytical Engines Ltd",
  street1: "12 Babbage Lane",
  street2: "Apt 3",
  city: "Springfield",
  state: "IL",
  zip: "62704",
  country: "US",
  phone: "+1 555 0100",
  email: "ada@example.com",
};
const GRACE = {
  ...ADA,
  name: "Grace Hopper",
  company: "Navy",
  street1: "9 Cobol Court",
  phone: "+1 555 0199",
  email: "grace@example.com",
};
// What must not survive customers/redact anywhere, in any case (address keys are upper case).
const ADA_STRINGS = ["Ada Lovelace", "Lovelace", "Analytical Engines", "Babbage", "555 0100", "ada@example.com"];
const SHIP_FROM = {
  ...ADA,
  name: "Warehouse",
  company: "The Shop",
  street2: null,
  street1: "1 Dock Road",
  phone: "+1 555 0000",
  email: "ops@shop.test",
};

const request = (to: typeof ADA) => JSON.stringify({ from_address: SHIP_FROM, to_address: to, reference: to.name });

async function seedShop(shop: string) {
  const ada = await insertLabelRow({
    shop,
    orderGid: "gid://shopify/Order/1001",
    orderName: "#1001",
    fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/1001-${shop}`,
    status: "purchased",
    request: request(ADA),
    trackingNumbers: JSON.stringify(["1Z999AA10123456784"]),
    chargedCents: 1234,
    lastError: "ADDRESS_AMBIGUOUS: 12 Babbage Lane, Apt 3",
  });
  await insertLabelRow({
    shop,
    orderGid: "gid://shopify/Order/2002",
    orderName: "#2002",
    fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/2002-${shop}`,
    request: request(GRACE),
  });
  await db.auditEntry.createMany({
    data: [
      { shop, action: "validate", outcome: "ok", orderGid: "gid://shopify/Order/1001", amountCents: 5, requestId: `req_v_${shop}`, detail: "validated 12 Babbage Lane for Ada Lovelace" },
      { shop, action: "purchase", outcome: "ok", orderGid: "gid://shopify/Order/1001", labelId: ada.id, amountCents: 1234, detail: "charged" },
      { shop, action: "validate", outcome: "ok", orderGid: "gid://shopify/Order/2002", amountCents: 5, detail: "validated 9 Cobol Court" },
    ],
  }); // prettier-ignore
  await db.addressValidation.create({
    data: {
      shop,
      addressKey: toAddressKey({ ...ADA, country: "US" }),
      result: JSON.stringify({ address: ADA, verified: true }),
      billedCents: 5,
      requestId: `req_v_${shop}`,
    },
  });
  await db.session.create({
    data: {
      id: `offline_${shop}`,
      shop,
      state: "",
      accessToken: "shpat_x",
      firstName: "Staff",
      email: "staff@shop.test",
    },
  });
  await db.shopSettings.create({ data: { shop, apiKeyCiphertext: "sealed", apiKeyHint: "1234" } });
  await db.boxPreset.create({
    data: { shop, name: "Box", length: 1, width: 1, height: 1, dimensionUnit: "in", maxWeight: 5, weightUnit: "lb" },
  });
  await enqueueTestJob(db, shop, { dedupeKey: "sweep" });
  await db.webhookDelivery.create({ data: { shop, topic: "APP_SCOPES_UPDATE", eventKey: "earlier" } });
  // What auto-draft reported about Ada's order can quote her address back.
  await db.autoDraftOutcome.create({
    data: {
      shop,
      orderGid: "gid://shopify/Order/1001",
      orderName: "#1001",
      fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/1001-${shop}`,
      status: "blocked",
      problems: JSON.stringify([{ path: "to_address.street1", message: "12 Babbage Lane was not found" }]),
    },
  });
  // A bulk run that found the same problem.
  const run = await db.bulkRun.create({ data: { shop, status: "review" } });
  await db.bulkRunItem.create({
    data: {
      runId: run.id,
      shop,
      position: 0,
      orderGid: "gid://shopify/Order/1001",
      orderName: "#1001",
      fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/1001-${shop}`,
      status: "blocked",
      problems: JSON.stringify([{ path: "to_address.street1", message: "12 Babbage Lane was not found" }]),
    },
  });
  return { adaLabelId: ada.id };
}

/** A row with its sealed values opened (ADR 28): a redaction must leave no copy, sealed or not. */
const opened = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === "string" && value.startsWith("pd1:") ? (openPersonalOrNull(value) ?? value) : value,
    ]),
  );

/** Every row of every table, as text (sealed values opened), with its table: what a stored row could leak. */
async function allRows(): Promise<Array<{ table: string; row: Record<string, unknown>; text: string }>> {
  // Every table the database has (not the ones the test knows of), on either provider.
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    databaseKindOf(db) === "postgresql"
      ? "SELECT tablename::text AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_app_migrations'"
      : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'",
  );
  const rows = [];
  if (databaseKindOf(db) === "postgresql") {
    // The job queue's table on PostgreSQL (pg-boss), where a job's shop is in its data.
    const jobs = await db.$queryRawUnsafe<Record<string, unknown>[]>(
      "SELECT id::text AS id, name, data->>'shop' AS shop, data FROM pgboss.job",
    );
    for (const row of jobs) rows.push({ table: "pgboss.job", row, text: JSON.stringify(row) });
  }
  for (const { name } of tables) {
    for (const row of await db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${name}"`)) {
      rows.push({
        table: name,
        row,
        text: JSON.stringify(opened(row), (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)),
      });
    }
  }
  return rows;
}

const leaks = async (strings: readonly string[]) =>
  (await allRows()).filter(({ text }) => strings.some((s) => text.toLowerCase().includes(s.toLowerCase())));

const complianceRequest = (
  topic: string,
  payload: unknown,
  options: { hmac?: string; eventId?: string; shop?: string } = {},
) => createWebhookRequest({ topic, path: "/webhooks/compliance", payload, ...options });

const redactAda = (options: { hmac?: string; eventId?: string } = {}) =>
  complianceRequest(
    "customers/redact",
    {
      shop_id: 1,
      shop_domain: TEST_SHOP,
      customer: { id: 7, email: ADA.email, phone: ADA.phone },
      orders_to_redact: [1001],
    },
    options,
  );

describe("customers/redact webhook", () => {
  let adaLabelId = "";
  beforeEach(async () => {
    ({ adaLabelId } = await seedShop(TEST_SHOP));
    await seedShop(OTHER_SHOP);
  });

  it("removes the customer's name, address, phone and e-mail from every row of the shop, keeping amounts and tracking", async () => {
    const response = await callAction(redactAda());
    expect(response.status).toBe(200);

    const left = (await leaks(ADA_STRINGS)).filter(({ row }) => row.shop === TEST_SHOP);
    expect(left).toEqual([]);
    const label = await db.label.findUniqueOrThrow({ where: { id: adaLabelId } });
    expect(label).toMatchObject({
      chargedCents: 1234,
      trackingNumbers: JSON.stringify(["1Z999AA10123456784"]),
      status: "purchased",
    });
    expect(JSON.parse(openPersonalOrNull(label.request) ?? "null")).toMatchObject({
      to_address: { country: "US" },
      from_address: SHIP_FROM,
    });
    const amounts = await db.auditEntry.findMany({ where: { shop: TEST_SHOP, orderGid: "gid://shopify/Order/1001" } });
    expect(amounts.map((a) => a.amountCents).sort()).toEqual([1234, 5]);

    // Another customer's order, and another shop's rows, are untouched.
    expect(await leaks(["Grace Hopper"])).toHaveLength(2); // her label in each shop
    expect((await leaks(["Ada Lovelace"])).every(({ row }) => row.shop === OTHER_SHOP)).toBe(true);
  });

  it("removes the recipient's customs tax id from the customer's labels, as the retention sweep does", async () => {
    // A CPF no other field repeats: only its place in the customs declaration says whose it is.
    const taxId = "123.456.789-09";
    const label = await insertLabelRow({
      shop: TEST_SHOP,
      orderGid: "gid://shopify/Order/1001",
      orderName: "#1001",
      request: JSON.stringify({
        from_address: SHIP_FROM,
        to_address: { ...ADA, country: "BR" },
        customs: { description: "Gift", contents_type: "merchandise", quantity: 1, tax_id: taxId },
      }),
    });

    expect((await callAction(redactAda())).status).toBe(200);

    expect((await leaks([taxId])).filter(({ row }) => row.shop === TEST_SHOP)).toEqual([]);
    const stored = await db.label.findUniqueOrThrow({ where: { id: label.id } });
    expect(JSON.parse(openPersonalOrNull(stored.request) ?? "null")).toMatchObject({
      customs: { description: "Gift", quantity: 1, tax_id: "[redacted]" },
      to_address: { country: "BR" },
    });
  });

  it("answers 401 for a badly signed request and changes nothing", async () => {
    const before = await allRows();
    const response = await callAction(redactAda({ hmac: BAD_HMAC }));
    expect(response.status).toBe(401);
    expect(await allRows()).toEqual(before);
  });

  it("does the work once when the same delivery comes twice", async () => {
    expect((await callAction(redactAda({ eventId: "redact-1" }))).status).toBe(200);
    // Data stored after the redaction (a new label for the order) is not redacted by a redelivery.
    await insertLabelRow({ shop: TEST_SHOP, orderGid: "gid://shopify/Order/1001", request: request(ADA) });
    expect((await callAction(redactAda({ eventId: "redact-1" }))).status).toBe(200);
    expect((await leaks(["Ada Lovelace"])).filter(({ row }) => row.shop === TEST_SHOP)).toHaveLength(1);
  });
});

describe("customers/data_request webhook", () => {
  beforeEach(async () => {
    await seedShop(TEST_SHOP);
  });

  const dataRequest = (options: { hmac?: string; eventId?: string } = {}) =>
    complianceRequest(
      "customers/data_request",
      {
        shop_id: 1,
        shop_domain: TEST_SHOP,
        customer: { id: 7, email: ADA.email },
        orders_requested: [1001],
        data_request: { id: 9 },
      },
      options,
    );

  it("assembles what the app holds for the orders and keeps it for the merchant", async () => {
    expect((await callAction(dataRequest())).status).toBe(200);
    const [request, ...more] = await listCustomerDataRequests(db, TEST_SHOP);
    expect(more).toEqual([]);
    expect(request).toMatchObject({ customerId: "7", orders: ["gid://shopify/Order/1001"] });
    expect(request?.report.labels).toEqual([
      expect.objectContaining({
        orderName: "#1001",
        shipTo: expect.objectContaining({ name: "Ada Lovelace" }),
        chargedCents: 1234,
      }),
    ]);
    expect(request?.report.audit).toHaveLength(2);
    expect(request?.report.addressValidations).toHaveLength(1);
    expect(await listCustomerDataRequests(db, OTHER_SHOP)).toEqual([]);
  });

  it("answers 401 for a badly signed request and records nothing", async () => {
    expect((await callAction(dataRequest({ hmac: BAD_HMAC }))).status).toBe(401);
    expect(await db.customerDataRequest.count()).toBe(0);
  });

  it("records one request when the same delivery comes twice", async () => {
    await callAction(dataRequest({ eventId: "dr-1" }));
    expect((await callAction(dataRequest({ eventId: "dr-1" }))).status).toBe(200);
    expect(await db.customerDataRequest.count()).toBe(1);
  });

  it("acknowledges a malformed payload once, logging why", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const response = await callAction(complianceRequest("customers/data_request", { orders_requested: "1001" }));
    expect(response.status).toBe(200);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("CUSTOMERS_DATA_REQUEST payload"));
    expect(await db.customerDataRequest.count()).toBe(0);
  });
});

describe("shop/redact webhook", () => {
  beforeEach(async () => {
    await seedShop(TEST_SHOP);
    await seedShop(OTHER_SHOP);
  });

  const shopRedact = (options: { hmac?: string; eventId?: string } = {}) =>
    complianceRequest("shop/redact", { shop_id: 1, shop_domain: TEST_SHOP }, options);
  const rowsOf = async (shop: string) => (await allRows()).filter(({ row }) => row.shop === shop);

  it("deletes every row the shop has in every table but its personal-data access log, and nothing of another shop", async () => {
    // Who opened the customers' details, and when: it names no customer, and outlives the data (ADR 28).
    await db.personalDataAccess.create({
      data: { shop: TEST_SHOP, actor: "staff:7", purpose: "GET /app/orders/:id", reader: "listLabelsForOrder", orderGids: '["gid://shopify/Order/1001"]' },
    }); // prettier-ignore
    const otherBefore = await rowsOf(OTHER_SHOP);
    expect((await callAction(shopRedact())).status).toBe(200);
    const left = await rowsOf(TEST_SHOP);
    expect(left.filter(({ table }) => table !== "PersonalDataAccess")).toEqual([]);
    expect(left.map(({ row }) => row.reader)).toEqual(["listLabelsForOrder"]);
    expect(await rowsOf(OTHER_SHOP)).toEqual(otherBefore);
  });

  it("answers 401 for a badly signed request and deletes nothing", async () => {
    const before = await allRows();
    expect((await callAction(shopRedact({ hmac: BAD_HMAC }))).status).toBe(401);
    expect(await allRows()).toEqual(before);
  });

  it("acknowledges the same delivery twice, the second finding nothing left to delete", async () => {
    expect((await callAction(shopRedact({ eventId: "sr-1" }))).status).toBe(200);
    expect((await callAction(shopRedact({ eventId: "sr-1" }))).status).toBe(200);
    expect(await rowsOf(TEST_SHOP)).toEqual([]);
    expect((await rowsOf(OTHER_SHOP)).length).toBeGreaterThan(0);
  });
});
