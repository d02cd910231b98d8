import type { Prisma } from "@prisma/client";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";

import { buyBulkRunItem, confirmBulkRun } from "~/bulk/bulk-buying.server";
import { getBulkRun } from "~/bulk/bulk-run-view.server";
import { checkBulkRunItem, startBulkRun } from "~/bulk/bulk-runs.server";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { callRoute } from "../../test/helpers/admin-form-requests";
import { createTestShippingClient } from "../../test/helpers/labels";
import { mockTokenExchange, routeShippingToEmulator, setupMockServer } from "../../test/helpers/msw";
import { createAdminRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { loader } from "./app.bulk.$runId.print";

setupMockServer();

/** A run of `orders` orders, checked and bought against the emulators; the label files are served by msw. */
async function boughtRun(orders: number) {
  const shipping = routeShippingToEmulator(createShippingEmulator());
  const shopify = createShopifyAdminEmulator({ shop: TEST_SHOP });
  const client = createTestShippingClient(shipping);
  const deps = { db, shop: TEST_SHOP, admin: shopify.graphql, shipping: client };
  const created = Array.from({ length: orders }, () => shopify.createOrder({ kind: "domestic" }).order);
  const checks: string[] = [];
  const buys: string[] = [];
  const into = (list: string[]) => async (_tx: Prisma.TransactionClient, id: string) => void list.push(id);
  const started = await startBulkRun(
    db,
    TEST_SHOP,
    { orders: created.map((o) => ({ orderGid: o.id, orderName: o.name })), choice: { mode: "cheapest" } },
    into(checks),
  );
  if (!started.ok) throw new Error(started.error.message);
  const runId = started.value.runId;
  for (const id of checks) await checkBulkRunItem(deps, id);
  const run = await getBulkRun(db, TEST_SHOP, runId);
  await confirmBulkRun(db, TEST_SHOP, runId, { count: orders, totalCents: run?.totalCents ?? 0 }, into(buys));
  for (const id of buys) await buyBulkRunItem(deps, id, { lastAttempt: false });
  return { runId, created };
}

async function print(runId: string, format: string) {
  mockTokenExchange();
  return (await callRoute(loader, createAdminRequest(`/app/bulk/${runId}/print?format=${format}`), {
    runId,
  })) as Response;
}

describe("/app/bulk/:runId/print", () => {
  it("answers one PDF of the run's labels, a page per box, as an attachment", async () => {
    const { runId } = await boughtRun(3);
    const response = await print(runId, "pdf");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="labels-.+\.pdf"$/);
    const pdf = await PDFDocument.load(new Uint8Array(await response.arrayBuffer()));
    const labels = await db.label.findMany({ where: { shop: TEST_SHOP, status: "fulfilled" } });
    const boxes = labels.reduce((n, l) => n + (JSON.parse(l.trackingNumbers) as string[]).length, 0);
    expect(labels).toHaveLength(3);
    expect(pdf.getPageCount()).toBe(boxes);
    expect(response.headers.get("X-Labels-Skipped")).toBe("0");
  });

  it("refuses a format it does not make, and has nothing to print for another shop's run", async () => {
    const { runId } = await boughtRun(1);
    expect((await print(runId, "docx")).status).toBe(400);
    const other = await db.bulkRun.create({ data: { shop: "other-shop.myshopify.com", status: "done" } });
    expect((await print(other.id, "pdf")).status).toBe(422);
  });
});
