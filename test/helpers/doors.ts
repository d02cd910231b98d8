// Every door that starts or spends on a label, driven the way its route or job drives it, over both
// emulators in-process: the Orders list's badge, the order page, the admin extension (buy and the
// selection's check), a bulk run (check, confirm, buy) and an automatic draft. Each answer is
// reduced to one shape, so one table of orders can be run through them all. Not a test file.
import type { Prisma } from "@prisma/client";

import { draftFulfillmentOrderAutomatically } from "~/auto-draft/auto-draft.server";
import { buyBulkRunItem, confirmBulkRun } from "~/bulk/bulk-buying.server";
import { checkBulkRunItem, startBulkRun } from "~/bulk/bulk-runs.server";
import db from "~/db.server";
import type { LabelError } from "~/labels/label-errors";
import { getBulkRun } from "~/routes/app.bulk.$runId/bulk-run-view.server";
import { listOrdersAwaitingShipment, type OrderRow } from "~/routes/app.orders._index/order-list.server";
import {
  buyLabelForOrderPage,
  createDraftForOrderPage,
  loadOrderLabelPage,
  quoteForOrderPage,
} from "~/routes/app.orders.$orderId/order-label-page.server";
import type { Rate } from "~/shipping/schemas";
import type { FulfillmentOrderGid, OrderGid } from "~/shopify/ids";

import { preflightOrdersForExtension } from "../../app/extension-api/bulk.server";
import { buyForExtension, loadOrderForExtension, quoteForExtension } from "../../app/extension-api/orders.server";
import { createEmulators, createTestShippingClient, DEMO_ORG, readAtTheService, TEST_LABEL_SHOP } from "./labels";

export const DOOR_SHOP = TEST_LABEL_SHOP;
// A domestic order no test breaks: its rate is what a forged request posts for a blocked shipment.
const RATE_DONOR = "#1002";

/** What a door answered, in one shape: its outcome, and the fields its refusal named. */
export type DoorAnswer = {
  readonly outcome: "ready" | "drafted" | "bought" | "blocked" | "skipped";
  /** The problem paths (or, where a door answers only messages, nothing). */
  readonly paths: readonly string[];
  readonly messages: readonly string[];
};

export type DoorWorld = ReturnType<typeof createDoorWorld>;

/** Both emulators, a shop with its key and automatic drafts on, and each door as a function. */
export function createDoorWorld() {
  const emulators = createEmulators();
  const shipping = createTestShippingClient(emulators.shipping);
  const admin = emulators.shopify.graphql;
  const deps = { db, shop: DOOR_SHOP, admin, shipping, staffMemberId: null };

  const orderGidOf = (name: string): OrderGid => {
    const id = emulators.shopify.findOrderByName(name)?.id;
    if (!id) throw new Error(`no order ${name}`);
    return id as OrderGid;
  };
  const firstFulfillmentOrder = (name: string): FulfillmentOrderGid => {
    const record = emulators.shopify.findOrderByName(name);
    const fo =
      record?.fulfillmentOrders.find((f) => f.deliveryMethod.methodType === "SHIPPING") ?? record?.fulfillmentOrders[0];
    if (!fo) throw new Error(`no fulfillment order on ${name}`);
    return fo.id as FulfillmentOrderGid;
  };

  const fromError = (error: LabelError): DoorAnswer => ({
    outcome: "blocked",
    paths: (error.problems ?? []).filter((p) => p.severity === "blocking").map((p) => p.path),
    messages: [error.message, ...(error.problems ?? []).map((p) => p.message)],
  });

  // A rate to post where the shipment cannot be quoted: a forged request still names one.
  const anyRate = async (): Promise<Rate> => {
    const page = await loadOrderLabelPage(deps, orderGidOf(RATE_DONOR));
    const section = page.ok ? page.value.fulfillmentOrders[0] : null;
    if (!section) throw new Error(`${RATE_DONOR} did not load`);
    const quote = await quoteForOrderPage(deps, { orderGid: orderGidOf(RATE_DONOR), request: section.prefill.request });
    const rate = quote.ok ? quote.value.rates[0] : undefined;
    if (!rate) throw new Error(`${RATE_DONOR} has no rate`);
    return rate;
  };

  return {
    emulators,
    shipping,
    deps,
    orderGidOf,
    firstFulfillmentOrder,

    /** The Orders list's row for the order (searched by name, as the merchant would). */
    async listRow(name: string): Promise<OrderRow> {
      const page = await listOrdersAwaitingShipment(deps, { tab: "all", search: name });
      if (!page.ok) throw new Error(page.error.logMessage);
      const row = page.value.rows.find((r) => r.name === name);
      if (!row) throw new Error(`${name} is not on the Orders list`);
      return row;
    },

    /** The order page: the shipment's problems as loaded, then Create draft as the form would post it. */
    async orderPageDraft(name: string, options: { rate?: Rate } = {}): Promise<DoorAnswer & { labelId?: string }> {
      const orderGid = orderGidOf(name);
      const page = await loadOrderLabelPage(deps, orderGid);
      if (!page.ok) return fromError(page.error);
      const section = page.value.fulfillmentOrders.find((s) => s.label === null) ?? page.value.fulfillmentOrders[0];
      if (!section) return { outcome: "skipped", paths: [], messages: ["no shipment"] };
      const quote = await quoteForOrderPage(deps, { orderGid, request: section.prefill.request });
      const rate = options.rate ?? (quote.ok ? quote.value.rates[0] : undefined) ?? (await anyRate());
      const drafted = await createDraftForOrderPage(deps, {
        orderGid,
        fulfillmentOrderId: section.id,
        request: section.prefill.request,
        lineItems: section.prefill.lineItems,
        rate,
      });
      if (!drafted.ok) return fromError(drafted.error);
      return { outcome: "drafted", paths: [], messages: [], labelId: drafted.value.label.id };
    },

    async orderPageBuy(name: string, labelId: string): Promise<DoorAnswer> {
      const bought = await buyLabelForOrderPage(deps, { orderGid: orderGidOf(name), labelId, notifyCustomer: false });
      if (!bought.ok) return fromError(bought.error);
      return { outcome: "bought", paths: [], messages: [] };
    },

    /** "Create label" in Shopify's order page: the shipment, its rates, then Buy at the shown price. */
    async extensionBuy(name: string): Promise<DoorAnswer> {
      const orderGid = orderGidOf(name);
      const state = await loadOrderForExtension(deps, orderGid);
      if (!state.ok) return fromError(state.error);
      const shipment = state.value.shipment;
      if (!shipment) return { outcome: "skipped", paths: [], messages: [state.value.nothingToShip ?? ""] };
      // A draft is offered at its own service and price; otherwise the cheapest rate. A blocked
      // shipment shows no rates: the extension's Buy is then forged with any service.
      const draft = shipment.label?.state === "draft" ? shipment.label : null;
      const rates = draft ? null : await quoteForExtension(deps, orderGid, shipment.fulfillmentOrderId);
      const rate = rates?.ok ? rates.value[0] : undefined;
      const outcome = await buyForExtension(deps, orderGid, {
        fulfillmentOrderId: shipment.fulfillmentOrderId,
        serviceCode: draft?.serviceCode ?? rate?.serviceCode ?? "ups_ground",
        expectedCents: draft?.price?.cents ?? rate?.price.cents ?? 1000,
        currency: draft?.price?.currency ?? rate?.price.currency ?? "USD",
      });
      if (outcome.ok) return { outcome: "bought", paths: [], messages: [] };
      if ("error" in outcome) return fromError(outcome.error);
      return { outcome: "blocked", paths: [], messages: [outcome.refusal.message] };
    },

    /** "Create labels" on a selection in Shopify's Orders list: what a run would find. */
    async selectionCheck(name: string): Promise<DoorAnswer> {
      const summary = await preflightOrdersForExtension(deps, [orderGidOf(name)]);
      if (!summary.ok) return fromError(summary.error);
      const fixing = summary.value.needsFixing.find((o) => o.orderName === name);
      if (fixing) return { outcome: "blocked", paths: [], messages: fixing.problems };
      if (summary.value.ready > 0) return { outcome: "ready", paths: [], messages: [] };
      return { outcome: "skipped", paths: [], messages: summary.value.leftOut.map((o) => o.reason) };
    },

    /** A bulk run over the orders: every check job run, the review read; `buy` confirms and buys. */
    async bulkRun(
      names: readonly string[],
      options: { beforeBuying?: () => Promise<void> | void; buy?: boolean } = {},
    ) {
      const checks: string[] = [];
      const buys: string[] = [];
      const into = (list: string[]) => async (_tx: Prisma.TransactionClient, id: string) => void list.push(id);
      const started = await startBulkRun(
        db,
        DOOR_SHOP,
        { orders: names.map((n) => ({ orderGid: orderGidOf(n), orderName: n })), choice: { mode: "rules" } },
        into(checks),
      );
      if (!started.ok) throw new Error(started.error.message);
      const runId = started.value.runId;
      for (const id of checks) {
        const checked = await checkBulkRunItem(deps, id);
        if (!checked.ok) throw new Error(checked.error.logMessage);
      }
      const review = await getBulkRun(db, DOOR_SHOP, runId);
      if (!review) throw new Error("no run");
      if (!options.buy) return { runId, review, final: review };
      const ready = review.items.filter((i) => i.status === "ready");
      const confirmed = await confirmBulkRun(
        db,
        DOOR_SHOP,
        runId,
        { count: ready.length, totalCents: review.totalCents },
        into(buys),
      );
      if (!confirmed.ok) throw new Error(confirmed.error.message);
      await options.beforeBuying?.();
      for (const id of buys) await buyBulkRunItem(deps, id, { lastAttempt: true });
      const final = await getBulkRun(db, DOOR_SHOP, runId);
      if (!final) throw new Error("no run");
      return { runId, review, final };
    },

    /** The bulk review's verdict on the order's first shipment, in the doors' shape. */
    async bulkCheck(name: string): Promise<DoorAnswer> {
      const { review } = await this.bulkRun([name]);
      const item = review.items[0];
      if (!item) throw new Error("no item");
      const outcome = item.status === "ready" ? "drafted" : item.status === "blocked" ? "blocked" : "skipped";
      return {
        outcome,
        paths: item.problems.map((p) => p.path),
        messages: [...item.problems.map((p) => p.message), ...(item.message ? [item.message] : [])],
      };
    },

    /** The auto-draft job for the order's first shipment (automatic drafts on). */
    async autoDraft(name: string): Promise<DoorAnswer> {
      const data = { autoDraft: true, autoDraftRules: "[]" };
      await db.shopSettings.upsert({ where: { shop: DOOR_SHOP }, create: { shop: DOOR_SHOP, ...data }, update: data });
      const result = await draftFulfillmentOrderAutomatically(deps, firstFulfillmentOrder(name));
      if (!result.ok) return fromError(result.error);
      const value = result.value;
      if (value.status === "drafted") return { outcome: "drafted", paths: [], messages: [] };
      if (value.status === "blocked") {
        return {
          outcome: "blocked",
          paths: value.problems.map((p) => p.path),
          messages: value.problems.map((p) => p.message),
        };
      }
      return { outcome: "skipped", paths: [], messages: [value.reason] };
    },

    /** The options of each label of the order, as the shipping service recorded them. */
    async optionsAtTheService(name: string): Promise<unknown[]> {
      const rows = await db.label.findMany({ where: { shop: DOOR_SHOP, orderGid: orderGidOf(name) } });
      return Promise.all(
        rows.map(async (row) => (await readAtTheService(emulators.shipping, row.serviceLabelId)).options),
      );
    },

    /** What the shipping emulator recorded for the shop's organization. */
    recorded() {
      return {
        drafts: emulators.shipping.labelsCreated(DEMO_ORG),
        charges: emulators.shipping.charges(DEMO_ORG).length,
      };
    },
  };
}
