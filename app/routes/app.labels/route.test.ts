import { describe, expect, it } from "vitest";

import db from "~/db.server";
import type { VoidLabelsAnswer } from "~/http/void-labels.server";
import { findLabel, VOID_READ_BACK_AFTER_MS } from "~/labels/label-repository.server";
import { settleOverdueVoids } from "~/labels/void-label.server";
import type { LabelListPage } from "~/routes/app.labels/label-list.server";
import { createShippingClientForShop } from "~/settings/settings.server";

import { callRoute, createAdminFormRequest } from "../../../test/helpers/admin-form-requests";
import { insertLabelRow } from "../../../test/helpers/label-rows";
import { mockTokenExchange, setupMockServer } from "../../../test/helpers/msw";
import {
  buyOnOrderPage,
  draftOnOrderPage,
  readServiceLabel,
  recordVoidRequests,
  setUpShop,
} from "../../../test/helpers/order-page-labels";
import { createAdminRequest } from "../../../test/helpers/shopify-requests";
import { TEST_SHOP } from "../../../test/setup/test-env";
import { action, loader } from "./route";

setupMockServer();

async function load(path: string) {
  mockTokenExchange();
  return (await callRoute(loader, createAdminRequest(path))) as LabelListPage;
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe("labels loader", () => {
  it("lists every label of the shop, newest first, with charges, tracking, write-back and file", async () => {
    await insertLabelRow({ orderName: "#1001", status: "draft", quotedCents: 900, createdAt: minutesAgo(30) });
    await insertLabelRow({
      orderGid: "gid://shopify/Order/5001",
      orderName: "#1002",
      status: "fulfilled",
      carrier: "UPS",
      serviceName: "UPS Ground",
      quotedCents: 1210,
      chargedCents: 1345,
      chargeMismatch: true,
      trackingNumbers: JSON.stringify(["1Z999"]),
      trackingUrl: "https://track.example/1Z999",
      labelUrl: "http://shipping.test/v1/labels/lbl_1/file",
      labelFormat: "pdf",
      writeBackStatus: "done",
      createdAt: minutesAgo(5),
    });
    await insertLabelRow({ shop: "other-shop.myshopify.com", orderName: "#9999" });

    const page = await load("/app/labels");
    expect(page.items.map((i) => i.orderName)).toEqual(["#1002", "#1001"]);
    expect(page.items[0]).toMatchObject({
      orderNumericId: "5001",
      carrier: "UPS",
      serviceName: "UPS Ground",
      trackingNumbers: ["1Z999"],
      quotedCents: 1210,
      chargedCents: 1345,
      chargeMismatch: true,
      labelUrl: "http://shipping.test/v1/labels/lbl_1/file",
      writeBack: { status: "done", lastError: null },
    });
    expect(page.counts).toMatchObject({ all: 2, draft: 1, fulfilled: 1, failed: 0 });
    expect(JSON.stringify(page)).not.toContain("#9999");
  });

  it("filters by state and pages through the rest", async () => {
    for (let i = 0; i < 27; i++) await insertLabelRow({ status: "purchased", createdAt: minutesAgo(100 - i) });
    await insertLabelRow({ status: "failed", lastError: "The address was refused" });

    const failed = await load("/app/labels?status=failed");
    expect(failed.items.map((i) => [i.status, i.lastError])).toEqual([["failed", "The address was refused"]]);

    const first = await load("/app/labels?status=purchased");
    const second = await load("/app/labels?status=purchased&page=2");
    expect([first.items.length, first.hasNextPage, second.items.length, second.hasNextPage]).toEqual([
      25,
      true,
      2,
      false,
    ]);
    const ids = new Set([...first.items, ...second.items].map((i) => i.id));
    expect(ids.size).toBe(27);
  });

  it("lists the return labels under their own filter, each marked as a return", async () => {
    await insertLabelRow({ status: "fulfilled" });
    const ret = await insertLabelRow({
      status: "fulfilled",
      kind: "return",
      returnGid: "gid://shopify/Return/77",
      fulfillmentOrderGid: "gid://shopify/ReverseFulfillmentOrder/77",
    });
    const returns = await load("/app/labels?status=return");
    expect(returns.items.map((i) => [i.id, i.kind])).toEqual([[ret.id, "return"]]);
    expect(returns.counts).toMatchObject({ all: 2, return: 1, fulfilled: 2 });
    const all = await load("/app/labels");
    expect(all.items.map((i) => i.kind).sort()).toEqual(["outbound", "return"]);
  });

  it("shows the first page of all labels for a malformed query instead of failing", async () => {
    await insertLabelRow();
    const page = await load("/app/labels?status=shipped&page=-3");
    expect([page.filter, page.page, page.items.length]).toEqual(["all", 1, 1]);
  });

  it("renders with no labels and no shipping key", async () => {
    const page = await load("/app/labels");
    expect(page).toMatchObject({ items: [], hasNextPage: false, counts: { all: 0 } });
  });

  it("answers a request with an expired session token with 401", async () => {
    const result = await callRoute(loader, createAdminRequest("/app/labels", { expiresIn: -120 }));
    expect((result as Response).status).toBe(401);
  });
});

async function voidFromList(labelIds: string[]) {
  const answer = await callRoute(
    action,
    createAdminFormRequest("/app/labels", { intent: "void", labelIds: JSON.stringify(labelIds) }),
  );
  if (answer instanceof Response) throw new Error(`answered ${answer.status}: ${await answer.text()}`);
  return answer as VoidLabelsAnswer;
}

const serviceIdOf = async (labelId: string) => (await findLabel(db, TEST_SHOP, labelId))?.serviceLabelId ?? "";
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);

describe("voiding from the Labels list", () => {
  it("voids one bought label: one void asked of the service, its refund pending, offered no more", async () => {
    const { shopify, shipping } = await setUpShop();
    const labelId = await buyOnOrderPage(shopify, "#1001");
    const listed = (await load("/app/labels")).items.find((i) => i.id === labelId);
    expect(listed).toMatchObject({ status: "fulfilled", voidBlocker: null, refund: null });
    const voids = recordVoidRequests();

    const { results } = await voidFromList([labelId]);

    const serviceLabelId = await serviceIdOf(labelId);
    expect(results).toEqual([
      expect.objectContaining({ labelId, orderName: "#1001", outcome: "pending", message: null }),
    ]);
    expect(voids).toEqual([serviceLabelId]);
    expect(await readServiceLabel(shipping, serviceLabelId)).toMatchObject({
      status: "void_pending",
      refund: { status: "pending" },
    });
    const after = (await load("/app/labels")).items.find((i) => i.id === labelId);
    expect(after).toMatchObject({ status: "void_pending", refund: { status: "pending" } });
    expect(after?.voidBlocker).toMatch(/already voided/i);
  });

  it("voids many at once, and for a selection that mixes in labels it can't void sends exactly one void per eligible label", async () => {
    const { shopify, shipping } = await setUpShop();
    const first = await buyOnOrderPage(shopify, "#1001");
    const second = await buyOnOrderPage(shopify, "#1002");
    const draft = await draftOnOrderPage(shopify, "#1003");
    // Bought 31 days ago: past the service's window.
    const old = await insertLabelRow({
      orderName: "#0990",
      status: "fulfilled",
      serviceLabelId: "lbl_old",
      chargedCents: 840,
      purchasedAt: daysAgo(31),
    });
    const voids = recordVoidRequests();

    const { results, notFound } = await voidFromList([first, draft, second, old.id, "cm0000000000000000000000"]);

    // An id the shop has no label for is counted, not echoed.
    expect(notFound).toBe(1);
    expect(results).toHaveLength(4);
    const byId = new Map(results.map((r) => [r.labelId, r]));
    expect(byId.get(first)?.outcome).toBe("pending");
    expect(byId.get(second)?.outcome).toBe("pending");
    expect(byId.get(draft)).toMatchObject({
      outcome: "refused",
      orderName: "#1003",
      message: expect.stringMatching(/discard/i),
    });
    expect(byId.get(old.id)).toMatchObject({ outcome: "refused", message: expect.stringMatching(/30 days/) });
    // The service's records: exactly one void per eligible label, none for the rest.
    expect(voids.sort()).toEqual([await serviceIdOf(first), await serviceIdOf(second)].sort());
    for (const id of [first, second]) {
      expect((await readServiceLabel(shipping, await serviceIdOf(id))).status).toBe("void_pending");
    }
    expect((await readServiceLabel(shipping, await serviceIdOf(draft))).status).toBe("draft");
    expect(shipping.refunds("org_demo")).toEqual([]);

    // Asked again (a double click, another tab): the same answer, nothing sent again.
    const again = await voidFromList([first, second]);
    expect(again.results.map((r) => r.outcome)).toEqual(["pending", "pending"]);
    expect(voids).toHaveLength(2);
  });

  it("lists pending and refunded voids under their filter, with the refund", async () => {
    const { shopify, shipping } = await setUpShop();
    const labelId = await buyOnOrderPage(shopify, "#1001");
    await voidFromList([labelId]);
    const pending = await load("/app/labels?status=void_pending");
    expect(pending.items.map((i) => i.id)).toEqual([labelId]);
    expect(pending.counts.void_pending).toBe(1);

    await shipping.decideVoid(await serviceIdOf(labelId), "refunded");
    // No event endpoint in this test: the decision as the recovery job reads it back.
    const client = await createShippingClientForShop(db, TEST_SHOP);
    if (!client.ok) throw new Error(client.error.logMessage);
    const overdue = () => new Date(Date.now() + VOID_READ_BACK_AFTER_MS + 60_000);
    await settleOverdueVoids({ db, shop: TEST_SHOP, admin: shopify.graphql, shipping: client.value, now: overdue });
    const voided = await load("/app/labels?status=voided");
    expect(voided.items).toEqual([
      expect.objectContaining({ id: labelId, refund: expect.objectContaining({ status: "refunded" }) }),
    ]);
    expect(shipping.refunds("org_demo")).toHaveLength(1);
  });

  it("refuses a malformed selection without sending anything", async () => {
    await setUpShop();
    const voids = recordVoidRequests();
    for (const labelIds of ["[]", "not json", JSON.stringify(["x".repeat(65)])]) {
      const answer = await callRoute(action, createAdminFormRequest("/app/labels", { intent: "void", labelIds }));
      expect((answer as Response).status).toBe(400);
    }
    expect(voids).toEqual([]);
  });
});
