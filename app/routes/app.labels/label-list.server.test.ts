import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { countLabelsNeeding } from "~/labels/label-needs.server";

import { insertLabelRow } from "../../../test/helpers/label-rows";
import { TEST_SHOP } from "../../../test/setup/test-env";
import type { LabelListFilter } from "./label-list";
import { listShopLabels } from "./label-list.server";

const NOW = new Date("2026-11-18T15:00:00Z");

const bought = (fields: Parameters<typeof insertLabelRow>[0] = {}) =>
  insertLabelRow({
    status: "fulfilled",
    writeBackStatus: "done",
    carrier: "UPS",
    serviceName: "UPS Ground",
    ...fields,
  });

async function trackParcel(labelId: string, trackingNumber: string, status: string) {
  await db.parcelTracking.create({ data: { shop: TEST_SHOP, labelId, trackingNumber, status, occurredAt: NOW } });
}

const orderNames = async (filter: LabelListFilter) =>
  (await listShopLabels(db, TEST_SHOP, { filter, now: NOW })).items.map((item) => item.orderName).sort();

describe("the Labels list's tracking exceptions", () => {
  it("shows the bought labels with a parcel the carrier reports delayed now, and nothing else", async () => {
    const delayed = await bought({ orderName: "#2001" });
    await trackParcel(delayed.id, "1Z1", "exception");
    // A shipment of two parcels, one delayed: the label is listed once.
    const split = await bought({ orderName: "#2002", status: "purchased", writeBackStatus: "pending" });
    await trackParcel(split.id, "1Z2", "exception");
    await trackParcel(split.id, "1Z3", "in_transit");
    // Its parcel moved on since: no longer an exception.
    const moving = await bought({ orderName: "#2003" });
    await trackParcel(moving.id, "1Z4", "in_transit");
    // Voided after the exception: nothing ships on it any more.
    const voided = await bought({ orderName: "#2004", status: "voided" });
    await trackParcel(voided.id, "1Z5", "exception");
    // Another shop's delayed parcel.
    const theirs = await bought({ orderName: "#2005", shop: "other-shop.myshopify.com" });
    await db.parcelTracking.create({
      data: {
        shop: "other-shop.myshopify.com",
        labelId: theirs.id,
        trackingNumber: "1Z6",
        status: "exception",
        occurredAt: NOW,
      },
    });

    expect(await orderNames("tracking_exception")).toEqual(["#2001", "#2002"]);
    const page = await listShopLabels(db, TEST_SHOP, { filter: "tracking_exception", now: NOW });
    expect(page.counts.tracking_exception).toBe(2);
    expect(await countLabelsNeeding(db, TEST_SHOP, "tracking_exception")).toBe(2);
  });
});

describe("the Labels list's failed write-backs", () => {
  it("shows the bought labels whose tracking Shopify did not take, and nothing else", async () => {
    await bought({ orderName: "#3001", status: "purchased", writeBackStatus: "failed", writeBackLastError: "Closed" });
    await bought({ orderName: "#3002", status: "purchased", writeBackStatus: "pending" });
    // Written on a later try: fulfilled in Shopify.
    await bought({ orderName: "#3003", status: "fulfilled", writeBackStatus: "done" });
    // Voided since: its tracking must not reach Shopify.
    await bought({ orderName: "#3004", status: "voided", writeBackStatus: "failed" });
    await insertLabelRow({ orderName: "#3005", status: "draft" });

    expect(await orderNames("write_back_failed")).toEqual(["#3001"]);
    const page = await listShopLabels(db, TEST_SHOP, { filter: "write_back_failed", now: NOW });
    expect(page.counts).toMatchObject({ all: 5, write_back_failed: 1, tracking_exception: 0 });
    expect(await countLabelsNeeding(db, TEST_SHOP, "write_back_failed")).toBe(1);
  });

  it("pages the filtered list like the others, newest first", async () => {
    for (const [i, name] of ["#4001", "#4002", "#4003"].entries()) {
      await bought({
        orderName: name,
        status: "purchased",
        writeBackStatus: "failed",
        createdAt: new Date(NOW.getTime() + i * 60_000),
      });
    }
    const first = await listShopLabels(db, TEST_SHOP, { filter: "write_back_failed", pageSize: 2, now: NOW });
    expect(first.items.map((item) => item.orderName)).toEqual(["#4003", "#4002"]);
    expect(first.hasNextPage).toBe(true);
    const second = await listShopLabels(db, TEST_SHOP, { filter: "write_back_failed", page: 2, pageSize: 2, now: NOW });
    expect(second.items.map((item) => item.orderName)).toEqual(["#4001"]);
    expect(second.hasNextPage).toBe(false);
  });
});
