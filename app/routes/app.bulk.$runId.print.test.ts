import { PDFDocument, type PDFPage } from "@cantoo/pdf-lib";
import type { Prisma } from "@prisma/client";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";

import { buyBulkRunItem, confirmBulkRun } from "~/bulk/bulk-buying.server";
import { checkBulkRunItem, startBulkRun } from "~/bulk/bulk-runs.server";
import { getBulkRun } from "~/routes/app.bulk.$runId/bulk-run-view.server";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import { callRoute } from "../../test/helpers/admin-form-requests";
import { insertLabelRow } from "../../test/helpers/label-rows";
import { createTestShippingClient } from "../../test/helpers/labels";
import { mockTokenExchange, routeShippingToEmulator, server, setupMockServer } from "../../test/helpers/msw";
import { readPageText } from "../../test/helpers/pdf-text";
import { createAdminRequest } from "../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { loader } from "./app.bulk.$runId.print";
import { loader as printOneLabel } from "./app.labels.$labelId.print";

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

/** "slip #1001" for a packing slip page, "label" for a label's page. */
const describePages = (pdf: PDFDocument) =>
  pdf.getPages().map((page: PDFPage) => {
    const text = readPageText(page);
    return text[0] === "Packing slip" ? `slip ${text[1]?.replace("Order ", "")}` : "label";
  });

describe("packing slips in the printed PDF (the shop's setting)", () => {
  const setSlips = (packingSlips: string, packingSlipNote: string | null = null) =>
    db.shopSettings.upsert({
      where: { shop: TEST_SHOP },
      create: { shop: TEST_SHOP, packingSlips, packingSlipNote },
      update: { packingSlips, packingSlipNote },
    });

  it("follows each label with its slip: the order, its items and quantities, ship-to, the shop and the note", async () => {
    const { runId, created } = await boughtRun(2);
    await setSlips("after_each", "Thanks for shopping with us!");
    const pdf = await PDFDocument.load(new Uint8Array(await (await print(runId, "pdf")).arrayBuffer()));
    expect(describePages(pdf)).toEqual(["label", `slip ${created[0]?.name}`, "label", `slip ${created[1]?.name}`]);
    const slip = readPageText(pdf.getPage(1));
    const order = created[0];
    const line = order?.lineItems[0];
    expect(slip).toContain(`${line?.quantity} × ${line?.title}`);
    expect(slip).toContain(order?.shippingAddress?.address1);
    expect(slip.at(-1)).toBe("Thanks for shopping with us!");
    await setSlips("after_all");
    expect(
      describePages(await PDFDocument.load(new Uint8Array(await (await print(runId, "pdf")).arrayBuffer()))),
    ).toEqual(["label", "label", `slip ${created[0]?.name}`, `slip ${created[1]?.name}`]);
  });

  it("prints one label with its slip from the order page, and nothing for a label of another shop", async () => {
    const { created } = await boughtRun(1);
    await setSlips("after_each");
    const label = await db.label.findFirstOrThrow({ where: { shop: TEST_SHOP, orderGid: created[0]?.id } });
    mockTokenExchange();
    const response = (await callRoute(printOneLabel, createAdminRequest(`/app/labels/${label.id}/print`), {
      labelId: label.id,
    })) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    const pdf = await PDFDocument.load(new Uint8Array(await response.arrayBuffer()));
    expect(describePages(pdf)).toEqual(["label", `slip ${created[0]?.name}`]);

    const other = await db.label.create({
      data: {
        shop: "other-shop.myshopify.com",
        orderGid: "gid://shopify/Order/9",
        orderName: "#9",
        fulfillmentOrderGid: "gid://shopify/FulfillmentOrder/9",
        labelUrl: label.labelUrl,
      },
    });
    mockTokenExchange();
    const refused = (await callRoute(printOneLabel, createAdminRequest(`/app/labels/${other.id}/print`), {
      labelId: other.id,
    })) as Response;
    expect(refused.status).toBe(404);
  });

  const printLabel = async (labelId: string) => {
    mockTokenExchange();
    return (await callRoute(printOneLabel, createAdminRequest(`/app/labels/${labelId}/print`), {
      labelId,
    })) as Response;
  };

  it("downloads a ZPL label as the service made it, as an attachment for the thermal printer", async () => {
    const labelUrl = "http://shipping.test/v1/labels/lbl_zpl/file.zpl";
    server.use(http.get(labelUrl, () => new HttpResponse("^XA^FO50,50^FD#1001^FS^XZ\n")));
    const label = await insertLabelRow({
      orderName: "#1001",
      status: "purchased",
      labelUrl,
      labelFormat: "zpl",
      trackingNumbers: JSON.stringify(["1Z1"]),
    });
    const response = await printLabel(label.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/zpl");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="label-1001.zpl"');
    expect(await response.text()).toBe("^XA^FO50,50^FD#1001^FS^XZ\n");
  });

  it("refuses the file of a voided label, which must not ship", async () => {
    const label = await insertLabelRow({
      status: "voided",
      labelUrl: "http://shipping.test/v1/labels/lbl_void/file.pdf",
      labelFormat: "pdf",
    });
    const response = await printLabel(label.id);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: { message: "This label was voided: it must not ship." } });
  });
});
