import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";

import { deleteShopLabels, listLabelRowsOfOrders, redactLabelRequests } from "~/labels/label-redaction.server";
import { recordPersonalDataAccess } from "~/labels/personal-data-access.server";
import { eraseShopJobs } from "~/queue/queue.server";
import { openPersonal, openPersonalOrNull, sealPersonal } from "~/settings/personal-data-box.server";
import { storedAddressKeys, toAddressKey } from "~/shipments/validate-address.server";
import type { AddressValidationRequest } from "~/shipping/schemas";

// Shopify's mandatory privacy requests (https://shopify.dev/docs/apps/build/privacy-law-compliance):
//   customers/data_request  what the app holds for the customer's orders, for the merchant to pass on;
//   customers/redact        the customer's personal data removed from those orders' rows;
//   shop/redact             everything the shop has, deleted (48 h after uninstall).
// Each takes a transaction client: the webhook records the delivery and does the work in one
// transaction (app/webhooks/webhook-delivery.server.ts). The ship-to details they read are sealed
// at rest (ADR 28): each opening is written to the access log, which they keep.

export const REDACTED = "[redacted]";

/** The customer's fields Shopify sends with customers/* requests. */
export type PrivacyCustomer = { id?: number | string | null; email?: string | null; phone?: string | null };

/** Shopify sends REST order ids; our rows keep Admin GraphQL GIDs. */
export const toOrderGid = (orderId: number | string) => `gid://shopify/Order/${orderId}`;

// The ship-to part of a stored label request that names, locates or reaches a person. The
// country stays, like the amounts and tracking, for the merchant's books.
const PERSONAL_ADDRESS_FIELDS = [
  "name",
  "company",
  "street1",
  "street2",
  "city",
  "state",
  "zip",
  "phone",
  "email",
  "delivery_instructions",
] as const;

const StoredAddressSchema = z
  .object({
    name: z.string().nullish(),
    company: z.string().nullish(),
    street1: z.string().nullish(),
    street2: z.string().nullish(),
    city: z.string().nullish(),
    state: z.string().nullish(),
    zip: z.string().nullish(),
    country: z.string().nullish(),
    phone: z.string().nullish(),
    email: z.string().nullish(),
  })
  .loose();
export type StoredAddress = z.infer<typeof StoredAddressSchema>;

export function parseStoredRequest(raw: string | null): Record<string, unknown> | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function shipToOf(request: Record<string, unknown> | null): StoredAddress | null {
  const parsed = StoredAddressSchema.safeParse(request?.to_address);
  return parsed.success ? parsed.data : null;
}

export function shipTosOf(labels: ReadonlyArray<{ request: string | null }>): StoredAddress[] {
  const addresses: StoredAddress[] = [];
  for (const label of labels) {
    const address = shipToOf(parseStoredRequest(label.request));
    if (address) addresses.push(address);
  }
  return addresses;
}

/** Every string that identifies the customer: ship-to fields of their labels, and what Shopify sent. */
export function personalStrings(addresses: readonly StoredAddress[], customer: PrivacyCustomer): string[] {
  const values = new Set<string>();
  for (const address of addresses) {
    for (const field of ["name", "company", "street1", "street2", "phone", "email"] as const) {
      const value = address[field]?.trim();
      if (value && value.length >= 3) values.add(value);
    }
  }
  for (const value of [customer.email, customer.phone]) if (value?.trim()) values.add(value.trim());
  return [...values].sort((a, b) => b.length - a.length);
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces every occurrence of the customer's strings, in any case. */
export function scrubText(text: string | null, strings: readonly string[]): string | null {
  if (text === null || strings.length === 0) return text;
  return strings.reduce((out, value) => out.replace(new RegExp(escapeRegExp(value), "gi"), REDACTED), text);
}

// The recipient's tax id (CPF, codice fiscale) in a customs declaration names them as surely as
// their name does.
function withoutTaxId(request: Record<string, unknown>): Record<string, unknown> {
  const customs = request.customs;
  if (typeof customs !== "object" || customs === null || !("tax_id" in customs)) return request;
  return { ...request, customs: { ...customs, tax_id: REDACTED } };
}

/**
 * A stored label request without its recipient: the ship-to's personal fields, the customs tax id,
 * and any other text repeating the customer's strings. customers/redact and the ship-to retention
 * sweep (ship-to-retention.server.ts) both redact through this one function.
 */
export function redactRequest(stored: Record<string, unknown>, strings: readonly string[]): string {
  const request = withoutTaxId(stored);
  const shipTo = request.to_address;
  const redactedShipTo =
    typeof shipTo === "object" && shipTo !== null
      ? {
          ...(shipTo as Record<string, unknown>),
          ...Object.fromEntries(
            PERSONAL_ADDRESS_FIELDS.filter((field) => field in (shipTo as Record<string, unknown>)).map((field) => [
              field,
              field === "name" || field === "street1" || field === "city" || field === "zip" ? REDACTED : null,
            ]),
          ),
        }
      : shipTo;
  // Anything else in the request that repeats the customer's data (a reference, customs notes).
  return scrubText(JSON.stringify({ ...request, to_address: redactedShipTo }), strings) ?? "";
}

// ---------- customers/data_request ----------

export type CustomerDataReport = {
  orders: string[];
  labels: Array<{
    id: string;
    orderGid: string;
    orderName: string;
    status: string;
    carrier: string | null;
    serviceName: string | null;
    trackingNumbers: unknown;
    shipTo: StoredAddress | null;
    chargedCents: number | null;
    currency: string;
    createdAt: string;
  }>;
  audit: Array<{
    action: string;
    outcome: string;
    amountCents: number | null;
    detail: string | null;
    createdAt: string;
  }>;
  addressValidations: Array<{ addressKey: string; result: unknown; createdAt: string }>;
};

/** The addresses a validation may have been stored for: US ones only, as validate-address.server.ts keys them. */
function validationAddresses(addresses: readonly StoredAddress[]): AddressValidationRequest[] {
  return addresses.flatMap((address) =>
    address.street1 && address.city && address.state && address.zip && (address.country ?? "US") === "US"
      ? [
          {
            street1: address.street1,
            street2: address.street2 ?? null,
            city: address.city,
            state: address.state,
            zip: address.zip,
            country: "US",
          },
        ]
      : [],
  );
}

export async function validationsFor(
  tx: Prisma.TransactionClient,
  shop: string,
  addresses: StoredAddress[],
  requestIds: string[],
) {
  // Stored under the address's digest (or, for rows from before ADR 28, its clear key).
  const keys = storedAddressKeys(validationAddresses(addresses));
  return tx.addressValidation.findMany({
    where: { shop, OR: [{ addressKey: { in: keys } }, { requestId: { in: requestIds } }] },
  });
}

/** A stored validation's answer, opened (sealed or from before ADR 28); null when it does not open. */
function openValidationResult(result: string): unknown {
  const opened = openPersonal(result);
  if (!opened.ok) return null;
  try {
    return JSON.parse(opened.value) as unknown;
  } catch {
    return null;
  }
}

/** What the app holds for these orders: labels (with the ship-to), audit entries, address validations. */
export async function assembleCustomerData(
  tx: Prisma.TransactionClient,
  shop: string,
  orderGids: readonly string[],
): Promise<CustomerDataReport> {
  const labels = await listLabelRowsOfOrders(tx, shop, orderGids, "customers/data_request");
  const audit = await tx.auditEntry.findMany({
    where: { shop, orderGid: { in: [...orderGids] } },
    orderBy: { createdAt: "asc" },
  });
  const shipTos = shipTosOf(labels);
  // A validation is stored under its address's digest: the report names the address in clear.
  const clearKeys = new Map(
    validationAddresses(shipTos).flatMap((address) =>
      storedAddressKeys([address]).map((key): [string, string] => [key, toAddressKey(address)]),
    ),
  );
  const requestIds = audit.flatMap((entry) =>
    entry.action === "validate" && entry.requestId ? [entry.requestId] : [],
  );
  const validations = await validationsFor(tx, shop, shipTos, requestIds);
  return {
    orders: [...orderGids],
    labels: labels.map((label) => ({
      id: label.id,
      orderGid: label.orderGid,
      orderName: label.orderName,
      status: label.status,
      carrier: label.carrier,
      serviceName: label.serviceName,
      trackingNumbers: JSON.parse(label.trackingNumbers) as unknown,
      shipTo: shipToOf(parseStoredRequest(label.request)),
      chargedCents: label.chargedCents,
      currency: label.currency,
      createdAt: label.createdAt.toISOString(),
    })),
    audit: audit.map((entry) => ({
      action: entry.action,
      outcome: entry.outcome,
      amountCents: entry.amountCents,
      detail: entry.detail,
      createdAt: entry.createdAt.toISOString(),
    })),
    addressValidations: validations.map((row) => ({
      addressKey: clearKeys.get(row.addressKey) ?? "(the address validated for this order)",
      result: openValidationResult(row.result),
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

/** customers/data_request: assemble and keep the report for the merchant (Activity screen). */
export async function recordCustomerDataRequest(
  tx: Prisma.TransactionClient,
  shop: string,
  request: { orderIds: readonly (number | string)[]; customer: PrivacyCustomer },
): Promise<{ id: string; report: CustomerDataReport }> {
  const orderGids = request.orderIds.map(toOrderGid);
  const report = await assembleCustomerData(tx, shop, orderGids);
  const row = await tx.customerDataRequest.create({
    data: {
      shop,
      customerId: request.customer.id == null ? null : String(request.customer.id),
      ordersRequested: JSON.stringify(orderGids),
      // What the app holds of the customer, so sealed like the rows it was assembled from.
      report: sealPersonal(JSON.stringify(report)),
    },
  });
  return { id: row.id, report };
}

export type CustomerDataRequestView = {
  id: string;
  customerId: string | null;
  orders: string[];
  report: CustomerDataReport;
  createdAt: string;
};

const EMPTY_REPORT: CustomerDataReport = { orders: [], labels: [], audit: [], addressValidations: [] };

/**
 * The data requests Shopify sent for the shop, newest first, with what the app holds: for the
 * Activity screen. Opening the reports is written to the access log.
 */
export async function listCustomerDataRequests(db: PrismaClient, shop: string): Promise<CustomerDataRequestView[]> {
  const rows = await db.customerDataRequest.findMany({ where: { shop }, orderBy: { createdAt: "desc" }, take: 50 });
  const views = rows.map((row) => {
    const orders = JSON.parse(row.ordersRequested) as string[];
    const opened = openPersonalOrNull(row.report);
    // A report that no longer opens (the encryption key changed) shows as empty, not as an error.
    const report = opened === null ? { ...EMPTY_REPORT, orders } : (JSON.parse(opened) as CustomerDataReport);
    return { id: row.id, customerId: row.customerId, orders, report, createdAt: row.createdAt.toISOString() };
  });
  await recordPersonalDataAccess(db, {
    shop,
    reader: "listCustomerDataRequests",
    orderGids: views.flatMap((view) => view.orders),
  });
  return views;
}

// ---------- customers/redact ----------

export type RedactionReport = {
  labels: number;
  auditEntries: number;
  addressValidations: number;
  dataRequests: number;
};

/**
 * customers/redact: the customer's names, addresses, phones and e-mails leave every row kept for
 * these orders. Amounts, tracking numbers, carriers and statuses stay (the merchant's books).
 */
export async function redactCustomerData(
  tx: Prisma.TransactionClient,
  shop: string,
  request: { orderIds: readonly (number | string)[]; customer: PrivacyCustomer },
): Promise<RedactionReport> {
  const orderGids = request.orderIds.map(toOrderGid);
  const labels = await listLabelRowsOfOrders(tx, shop, orderGids, "customers/redact");
  const shipTos = shipTosOf(labels);
  const strings = personalStrings(shipTos, request.customer);
  const audit = await tx.auditEntry.findMany({ where: { shop, orderGid: { in: orderGids } } });
  const requestIds = audit.flatMap((entry) =>
    entry.action === "validate" && entry.requestId ? [entry.requestId] : [],
  );

  // Address validations are keyed by the address itself: the row goes (the charge stays audited).
  const validations = await validationsFor(tx, shop, shipTos, requestIds);
  await tx.addressValidation.deleteMany({ where: { shop, id: { in: validations.map((row) => row.id) } } });

  await redactLabelRequests(
    tx,
    shop,
    labels.map((label) => redactedLabelFields(label, strings)),
  );
  for (const entry of audit) {
    const detail = scrubText(entry.detail, strings);
    if (detail !== entry.detail) await tx.auditEntry.update({ where: { id: entry.id }, data: { detail } });
  }
  // What auto-draft reported about those orders may quote the address: a notice, not a record.
  await tx.autoDraftOutcome.deleteMany({ where: { shop, orderGid: { in: orderGids } } });
  // So may a bulk run's list of what blocked them; the run keeps that the item was blocked.
  await tx.bulkRunItem.updateMany({
    where: { shop, orderGid: { in: orderGids } },
    data: { problems: JSON.stringify([{ path: "order", message: "Redacted at the customer's request." }]) },
  });
  // Reports assembled for earlier data requests hold the same data.
  const reports = await tx.customerDataRequest.findMany({ where: { shop } });
  const withOrders = reports.filter((row) =>
    (JSON.parse(row.ordersRequested) as string[]).some((gid) => orderGids.includes(gid)),
  );
  await tx.customerDataRequest.deleteMany({ where: { id: { in: withOrders.map((row) => row.id) } } });
  return {
    labels: labels.length,
    auditEntries: audit.length,
    addressValidations: validations.length,
    dataRequests: withOrders.length,
  };
}

// ---------- shop/redact ----------

/**
 * shop/redact: every row the shop has, in every table (settings with the sealed API key, labels,
 * audit, auto-draft outcomes, bulk runs, shipping events and endpoints, parcel tracking, presets, address validations, what orders paid for shipping, quoted rates, jobs, data requests, webhook
 * records, sessions), but the personal-data access log: it names no customer, and is the record
 * that their data was handled (kept its year, then pruned; ADR 28).
 * Running jobs lose their claim first, so nothing a worker holds writes back afterwards.
 */
export async function eraseShopData(tx: Prisma.TransactionClient, shop: string): Promise<Record<string, number>> {
  const jobs = await eraseShopJobs(tx, shop);
  const where = { where: { shop } };
  return {
    jobs: jobs.deleted,
    labels: await deleteShopLabels(tx, shop),
    autoDraftOutcomes: (await tx.autoDraftOutcome.deleteMany(where)).count,
    bulkRunItems: (await tx.bulkRunItem.deleteMany(where)).count,
    bulkRuns: (await tx.bulkRun.deleteMany(where)).count,
    parcelTracking: (await tx.parcelTracking.deleteMany(where)).count,
    shippingEvents: (await tx.shippingEvent.deleteMany(where)).count,
    shippingEventEndpoints: (await tx.shippingEventEndpoint.deleteMany(where)).count,
    auditEntries: (await tx.auditEntry.deleteMany(where)).count,
    addressValidations: (await tx.addressValidation.deleteMany(where)).count,
    boxPresets: (await tx.boxPreset.deleteMany(where)).count,
    shippingPaid: (await tx.orderShippingPaid.deleteMany(where)).count,
    rateQuotes: (await tx.rateQuote.deleteMany(where)).count,
    settings: (await tx.shopSettings.deleteMany(where)).count,
    dataRequests: (await tx.customerDataRequest.deleteMany(where)).count,
    webhookDeliveries: (await tx.webhookDelivery.deleteMany(where)).count,
    sessions: (await tx.session.deleteMany(where)).count,
  };
}

/** A label's stored request and error texts with the customer's details taken out. */
export function redactedLabelFields(
  label: { id: string; request: string | null; lastError: string | null; writeBackLastError: string | null },
  strings: Parameters<typeof scrubText>[1],
) {
  const request = parseStoredRequest(label.request);
  return {
    id: label.id,
    request: request ? redactRequest(request, strings) : label.request === null ? null : REDACTED,
    lastError: scrubText(label.lastError, strings),
    writeBackLastError: scrubText(label.writeBackLastError, strings),
  };
}
