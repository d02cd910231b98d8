import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { createShipToRetentionSchedule } from "~/jobs/retention-jobs.server";
import { openPersonalOrNull } from "~/settings/personal-data-box.server";
import { saveShipToRetentionDays } from "~/settings/retention-settings.server";
import { toAddressKey } from "~/shipments/validate-address.server";

import { insertLabelRow } from "../../test/helpers/label-rows";
import { TEST_SHOP } from "../../test/setup/test-env";
import { redactExpiredShipTos, redactExpiredShipTosForAllShops } from "./ship-to-retention.server";

// A fixed clock: what counts as "91 days ago" never depends on the day the suite runs.
const NOW = new Date("2026-06-01T12:00:00Z");
const now = () => NOW;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);
const OTHER_SHOP = "other-shop.myshopify.com";

const RECIPIENT = {
  name: "Grace Buyer",
  company: "Buyer Supplies",
  street1: "500 W 56th St",
  street2: "Apt 2B",
  city: "New York",
  state: "NY",
  zip: "10019",
  country: "US",
  phone: "+1 212 555 0100",
  email: "grace@example.com",
};

function requestFor(recipient = RECIPIENT) {
  return JSON.stringify({
    from_address: { name: "Harbor & Pine Goods", street1: "250 Kent Ave", city: "Brooklyn", country: "US" },
    to_address: recipient,
    parcel: { weight: 24, length: 10, width: 8, height: 4 },
    reference: `Order #1001 for ${recipient.name}`,
    customs: { description: "Cotton t-shirts", value: 120, tax_id: "123.456.789-09", tax_id_type: "CPF" },
  });
}

function delivered(days: number, fields: Partial<Prisma.LabelUncheckedCreateInput> = {}) {
  return insertLabelRow({
    status: "fulfilled",
    request: requestFor(),
    trackingNumbers: JSON.stringify(["1Z999"]),
    trackingStatus: "delivered",
    trackingStatusAt: daysAgo(days),
    shipToKey: JSON.stringify(["500 w 56th st", "apt 2b", "new york", "ny", "10019", "us"]),
    chargedCents: 1234,
    carrier: "UPS",
    ...fields,
  });
}

async function shipToOf(id: string) {
  const row = await db.label.findUniqueOrThrow({ where: { id } });
  // Stored sealed (ADR 28): read opened.
  const request = JSON.parse(openPersonalOrNull(row.request) ?? "null") as {
    to_address: Record<string, unknown>;
    reference: string;
    customs: Record<string, unknown>;
  };
  return { ...row, to: request.to_address, reference: request.reference, customs: request.customs };
}

const REDACTED_TO = {
  name: "[redacted]",
  company: null,
  street1: "[redacted]",
  street2: null,
  city: "[redacted]",
  state: null,
  zip: "[redacted]",
  country: "US",
  phone: null,
  email: null,
};

describe("ship-to retention", () => {
  it("redacts the ship-to of a label delivered 91 days ago and keeps one delivered 89 days ago", async () => {
    const old = await delivered(91);
    const recent = await delivered(89);

    const report = await redactExpiredShipTos({ db, now }, TEST_SHOP);

    expect(report).toEqual({ shop: TEST_SHOP, retentionDays: 90, cutoff: daysAgo(90).toISOString(), labels: 1 });
    const redacted = await shipToOf(old.id);
    expect(redacted.to).toEqual(REDACTED_TO);
    expect(redacted.reference).toBe("Order #1001 for [redacted]");
    expect(redacted.customs).toEqual({
      description: "Cotton t-shirts",
      value: 120,
      tax_id: "[redacted]",
      tax_id_type: "CPF",
    });
    expect(redacted).toMatchObject({ shipToKey: null, shipToRedactedAt: NOW });
    // The merchant's books stay: amounts, carrier, tracking, status.
    expect(redacted).toMatchObject({
      chargedCents: 1234,
      carrier: "UPS",
      trackingNumbers: '["1Z999"]',
      status: "fulfilled",
    });
    const kept = await shipToOf(recent.id);
    expect(kept.to).toEqual(RECIPIENT);
    expect(kept.shipToRedactedAt).toBeNull();
  });

  it("redacts a label voided 91 days ago and keeps one voided 89 days ago", async () => {
    const old = await insertLabelRow({ status: "voided", request: requestFor(), updatedAt: daysAgo(91) });
    const recent = await insertLabelRow({ status: "voided", request: requestFor(), updatedAt: daysAgo(89) });

    await redactExpiredShipTos({ db, now }, TEST_SHOP);

    expect((await shipToOf(old.id)).to).toEqual(REDACTED_TO);
    expect((await shipToOf(recent.id)).to).toEqual(RECIPIENT);
  });

  it("redacts a label that failed 91 days ago and keeps one that failed 89 days ago", async () => {
    const old = await insertLabelRow({ status: "failed", request: requestFor(), updatedAt: daysAgo(91) });
    const recent = await insertLabelRow({ status: "failed", request: requestFor(), updatedAt: daysAgo(89) });

    expect((await redactExpiredShipTos({ db, now }, TEST_SHOP)).labels).toBe(1);

    // Its last change stays when it failed: a recent failure holds automatic drafting, an old one must not.
    expect(await shipToOf(old.id)).toMatchObject({
      to: REDACTED_TO,
      status: "failed",
      shipToRedactedAt: NOW,
      updatedAt: daysAgo(91),
    });
    expect((await shipToOf(recent.id)).to).toEqual(RECIPIENT);
  });

  it("redacts a bought label never delivered once it was bought more than twice the period ago", async () => {
    const bought = (days: number, fields: Partial<Prisma.LabelUncheckedCreateInput> = {}) =>
      insertLabelRow({ status: "purchased", request: requestFor(), purchasedAt: daysAgo(days), ...fields });
    // Lost in transit, a carrier that never reports, a parcel sent back: no delivery, ever.
    const lost = await bought(181, { trackingStatus: "in_transit", trackingStatusAt: daysAgo(175) });
    const untracked = await bought(181, { status: "fulfilled" });
    const returned = await bought(181, { trackingStatus: "returned", trackingStatusAt: daysAgo(150) });
    // A row from before purchase times were recorded: its creation stands in.
    const undated = await bought(0, { purchasedAt: null, createdAt: daysAgo(181) });
    // Inside twice the period (90 days): still travelling, or still to be claimed for.
    const travelling = await bought(179, { trackingStatus: "in_transit", trackingStatusAt: daysAgo(170) });
    const quiet = await bought(179, { status: "fulfilled" });

    expect((await redactExpiredShipTos({ db, now }, TEST_SHOP)).labels).toBe(4);

    for (const label of [lost, untracked, returned, undated]) {
      expect(await shipToOf(label.id)).toMatchObject({ to: REDACTED_TO, shipToRedactedAt: NOW });
    }
    for (const label of [travelling, quiet]) expect((await shipToOf(label.id)).to).toEqual(RECIPIENT);
  });

  it("keeps a label bought long ago but delivered within the period", async () => {
    const late = await delivered(30, { purchasedAt: daysAgo(400) });

    expect((await redactExpiredShipTos({ db, now }, TEST_SHOP)).labels).toBe(0);

    expect((await shipToOf(late.id)).to).toEqual(RECIPIENT);
  });

  it("never redacts a draft, however old, nor a label in transit bought within twice the period", async () => {
    const labels = [
      await insertLabelRow({
        status: "draft",
        request: requestFor(),
        createdAt: daysAgo(400),
        updatedAt: daysAgo(400),
      }),
      await delivered(170, { trackingStatus: "in_transit", purchasedAt: daysAgo(175) }),
      await delivered(170, { status: "purchased", trackingStatus: "out_for_delivery", purchasedAt: daysAgo(175) }),
      await insertLabelRow({
        status: "purchased",
        request: requestFor(),
        purchasedAt: daysAgo(175),
        updatedAt: daysAgo(400),
      }),
    ];

    const report = await redactExpiredShipTos({ db, now }, TEST_SHOP);

    expect(report.labels).toBe(0);
    for (const label of labels) expect((await shipToOf(label.id)).to).toEqual(RECIPIENT);
  });

  it("sweeps a shop whose only expired labels failed or were never delivered", async () => {
    const failed = await insertLabelRow({ status: "failed", request: requestFor(), updatedAt: daysAgo(100) });
    const lost = await insertLabelRow({
      status: "purchased",
      request: requestFor(),
      purchasedAt: daysAgo(200),
      shop: OTHER_SHOP,
    });

    const reports = await redactExpiredShipTosForAllShops({ db, now, log: () => {} });

    expect(reports.map((report) => [report.shop, report.labels]).sort()).toEqual([
      [OTHER_SHOP, 1],
      [TEST_SHOP, 1],
    ]);
    expect((await shipToOf(failed.id)).to).toEqual(REDACTED_TO);
    expect((await shipToOf(lost.id)).to).toEqual(REDACTED_TO);
  });

  it("leaves other shops' labels untouched", async () => {
    const theirs = await delivered(200, { shop: OTHER_SHOP });
    const mine = await delivered(200);

    await redactExpiredShipTos({ db, now }, TEST_SHOP);

    expect((await shipToOf(mine.id)).to).toEqual(REDACTED_TO);
    expect((await shipToOf(theirs.id)).to).toEqual(RECIPIENT);
  });

  it("follows a shop's own period: with 30 days, a label delivered 31 days ago goes and one of 29 days stays", async () => {
    const saved = await saveShipToRetentionDays(db, TEST_SHOP, { shipToRetentionDays: 30 });
    expect(saved.ok).toBe(true);
    const old = await delivered(31);
    const recent = await delivered(29);
    const theirs = await delivered(31, { shop: OTHER_SHOP });

    expect(await redactExpiredShipTos({ db, now }, TEST_SHOP)).toMatchObject({ retentionDays: 30, labels: 1 });
    expect(await redactExpiredShipTos({ db, now }, OTHER_SHOP)).toMatchObject({ retentionDays: 90, labels: 0 });

    expect((await shipToOf(old.id)).to).toEqual(REDACTED_TO);
    expect((await shipToOf(recent.id)).to).toEqual(RECIPIENT);
    expect((await shipToOf(theirs.id)).to).toEqual(RECIPIENT);
  });

  it("changes nothing when run again: each label is redacted once", async () => {
    const label = await delivered(120);
    await redactExpiredShipTos({ db, now }, TEST_SHOP);
    const first = await db.label.findUniqueOrThrow({ where: { id: label.id } });

    const later = () => new Date(NOW.getTime() + 60_000);
    expect((await redactExpiredShipTos({ db, now: later }, TEST_SHOP)).labels).toBe(0);

    expect(await db.label.findUniqueOrThrow({ where: { id: label.id } })).toEqual(first);
  });

  it("removes the recipient from what is kept beside the label: errors, audit, scans, cached validation", async () => {
    const label = await delivered(120, {
      lastError: "Address 500 W 56th St not found for Grace Buyer",
      writeBackLastError: "Shopify refused: phone +1 212 555 0100 invalid",
    });
    await db.parcelTracking.create({
      data: {
        shop: TEST_SHOP,
        labelId: label.id,
        trackingNumber: "1Z999",
        status: "delivered",
        occurredAt: daysAgo(120),
        location: JSON.stringify({ city: "New York", state: "NY", zip: "10019", country: "US" }),
      },
    });
    await db.auditEntry.create({
      data: { shop: TEST_SHOP, labelId: label.id, action: "purchase", outcome: "ok", detail: "Bought for Grace Buyer" },
    });
    await db.addressValidation.create({
      data: {
        shop: TEST_SHOP,
        addressKey: toAddressKey({ ...RECIPIENT, country: "US" }),
        result: "{}",
        billedCents: 5,
        createdAt: daysAgo(125),
      },
    });

    await redactExpiredShipTos({ db, now }, TEST_SHOP);

    expect(await db.label.findUniqueOrThrow({ where: { id: label.id } })).toMatchObject({
      lastError: "Address [redacted] not found for [redacted]",
      writeBackLastError: "Shopify refused: phone [redacted] invalid",
    });
    expect(await db.parcelTracking.findFirstOrThrow({ where: { labelId: label.id } })).toMatchObject({
      status: "delivered",
      location: null,
    });
    expect(await db.auditEntry.findFirstOrThrow({ where: { labelId: label.id } })).toMatchObject({
      detail: "Bought for [redacted]",
      action: "purchase",
    });
    expect(await db.addressValidation.count({ where: { shop: TEST_SHOP } })).toBe(0);
  });

  it("sweeps every shop by its own period on the worker's schedule, sealing what was kept in clear", async () => {
    await saveShipToRetentionDays(db, OTHER_SHOP, { shipToRetentionDays: 30 });
    const mine = await delivered(60);
    const theirs = await delivered(60, { shop: OTHER_SHOP });
    const lines: string[] = [];

    await createShipToRetentionSchedule(db, (line) => lines.push(line), now).run();

    expect((await shipToOf(mine.id)).to).toEqual(RECIPIENT);
    expect((await shipToOf(theirs.id)).to).toEqual(REDACTED_TO);
    // Both rows were written in clear (as before ADR 28): the schedule sealed them first.
    const rows = await db.label.findMany({ where: { id: { in: [mine.id, theirs.id] } } });
    expect(rows.map((row) => row.request?.slice(0, 4))).toEqual(["pd1:", "pd1:"]);
    expect(lines).toEqual([
      `sealed rows kept in clear ${JSON.stringify({ labels: 2, addressValidations: 0, dataRequests: 0, parcels: 0, problems: 0 })}`,
      `ship-to retention ${JSON.stringify({ shop: OTHER_SHOP, retentionDays: 30, cutoff: daysAgo(30).toISOString(), labels: 1 })}`,
    ]);
    expect(await redactExpiredShipTosForAllShops({ db, now, log: (line) => lines.push(line) })).toEqual([]);
  });
});
