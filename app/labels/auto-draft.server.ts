import type { PrismaClient } from "@prisma/client";

import { isBlocking, type PreflightProblem } from "~/shipping/preflight";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { getFulfillmentOrderState } from "~/shopify/fulfillment-order-state";
import type { FulfillmentOrderGid } from "~/shopify/ids";
import { getOrderForLabel, type ShopifyFulfillmentOrder, type ShopifyOrderForLabel } from "~/shopify/orders";
import { getShopAndLocations, type ShopifyShopAndLocations } from "~/shopify/shop";
import { err, ok, type Result } from "~/utils/result";

import { clearAutoDraftOutcome, type OutcomeProblem, recordAutoDraftOutcome } from "./auto-draft-outcomes.server";
import { type AutoDraftFacts, type AutoDraftRule, chooseAutoDraftRate, matchAutoDraftRule } from "./auto-draft-rules";
import { getAutoDraftSettings } from "./auto-draft-settings.server";
import { createDraft, type DraftShippingPort, quoteLabel, type QuoteShippingPort } from "./create-draft.server";
import { fromShopifyError, type LabelError } from "./label-errors";
import { findActiveLabel } from "./label-repository.server";
import { toGrams } from "./parcels";
import { prefillLabelRequest } from "./prefill";
import { getShopSettings, listBoxPresets } from "./settings.server";
import { shipToKeyOf } from "./ship-to-key";

// The auto-draft job's use case: a fulfillment order Shopify says is ready to ship gets a draft
// label chosen by the shop's rules, or its problems are stored for the Orders list. It never
// buys. Running it twice is harmless: a fulfillment order with an active label is left alone,
// and createDraft keeps one active label per fulfillment order.

export type AutoDraftDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  /** null: the shop has no (readable) shipping API key. */
  shipping: (QuoteShippingPort & DraftShippingPort) | null;
  now?: Date;
};

export type AutoDraftResult =
  | { status: "drafted"; labelId: string; note: string | null }
  | { status: "blocked"; problems: OutcomeProblem[] }
  | { status: "skipped"; reason: string };

const DRAFTABLE_STATUSES = new Set(["OPEN", "IN_PROGRESS"]);

/** Shopify or the shipping service failed in a way a later attempt may not: the job retries. */
export function isTransientLabelError(error: LabelError): boolean {
  if (error.shipping) return error.shipping.retryable || Boolean(error.shipping.outcomeUnknown);
  if (error.shopify) return !error.shopify.fixable && error.shopify.code !== "NOT_FOUND";
  // purchase() reports an answer lost and not yet read back (or its quiet period) as
  // PURCHASE_OUTCOME_UNKNOWN: the next attempt reads the label back, so it is for a retry; it may
  // well have been charged, and failing it would hide that.
  return error.code === "PURCHASE_IN_PROGRESS" || error.code === "PURCHASE_OUTCOME_UNKNOWN";
}

const toOutcomeProblems = (problems: readonly PreflightProblem[]): OutcomeProblem[] =>
  problems.filter((p) => p.severity === "blocking").map((p) => ({ path: p.path, message: p.message }));

function describeChoice(rule: AutoDraftRule | null, index: number | null): string {
  if (!rule || index === null) return "No rule matched: cheapest rate.";
  const choice = rule.choice === "service" ? "the named service" : `${rule.choice} rate`;
  return `Rule ${index + 1}: ${choice}.`;
}

/** What the rules are judged on: destination, the items' weight, the order's value. */
export function readAutoDraftFacts(
  order: ShopifyOrderForLabel,
  fo: ShopifyFulfillmentOrder,
  fromCountry: string | null,
): AutoDraftFacts {
  const lines = fo.lineItems.filter((l) => l.requiresShipping && l.remainingQuantity > 0);
  const weighed = lines.every((l) => l.weight && l.weight.value > 0);
  const value = Number(order.totalPrice.shop.amount);
  return {
    fromCountry: fromCountry ?? fo.assignedLocation.countryCode,
    toCountry: fo.destination?.countryCode ?? order.shippingAddress?.countryCode ?? null,
    weightGrams: weighed
      ? lines.reduce((sum, l) => sum + (l.weight ? toGrams(l.weight) * l.remainingQuantity : 0), 0)
      : null,
    orderValue: Number.isFinite(value) ? value : null,
  };
}

export async function draftFulfillmentOrderAutomatically(
  deps: AutoDraftDeps,
  fulfillmentOrderGid: FulfillmentOrderGid,
): Promise<Result<AutoDraftResult, LabelError>> {
  const autoDraft = await getAutoDraftSettings(deps.db, deps.shop);
  if (!autoDraft.enabled) return ok({ status: "skipped", reason: "automatic drafts are off" });
  return draftFulfillmentOrderByRules(deps, fulfillmentOrderGid, { rules: autoDraft.rules, recordOutcome: true });
}

export type DraftByRulesOptions = {
  /** First match wins; none matching: the cheapest rate in the default box. */
  readonly rules: readonly AutoDraftRule[];
  /** Keep blocked and drafted outcomes for the Orders list (automatic drafts do; a bulk run keeps its own). */
  readonly recordOutcome: boolean;
};

/**
 * Drafts a fulfillment order's label as the rules choose, or says what blocks it: shared by
 * automatic drafts and bulk runs, which differ only in the rules and in where problems are kept.
 */
export async function draftFulfillmentOrderByRules(
  deps: AutoDraftDeps,
  fulfillmentOrderGid: FulfillmentOrderGid,
  options: DraftByRulesOptions,
): Promise<Result<AutoDraftResult, LabelError>> {
  const { db, shop, admin } = deps;
  const state = await getFulfillmentOrderState(admin, fulfillmentOrderGid);
  if (!state.ok) {
    if (state.error.code === "NOT_FOUND") return ok({ status: "skipped", reason: "not found in Shopify" });
    return err(fromShopifyError("autoDraft", state.error));
  }
  // On hold or scheduled: Shopify sends hold_released / scheduled_fulfillment_order_ready later.
  if (!state.value.status || !DRAFTABLE_STATUSES.has(state.value.status)) {
    return ok({ status: "skipped", reason: `fulfillment order is ${state.value.status ?? "in an unknown state"}` });
  }
  // draftLoadedShipment checks both again on the order it is given; checked here first, they
  // spare the two larger Shopify reads for a shipment on hold or already labelled.
  if (await findActiveLabel(db, shop, fulfillmentOrderGid)) {
    return ok({ status: "skipped", reason: "it already has a label" });
  }

  const [order, shopAndLocations] = await Promise.all([
    getOrderForLabel(admin, state.value.orderGid),
    getShopAndLocations(admin),
  ]);
  if (!order.ok) {
    if (order.error.code === "NOT_FOUND") return ok({ status: "skipped", reason: "order not found in Shopify" });
    return err(fromShopifyError("autoDraft", order.error));
  }
  if (!shopAndLocations.ok) return err(fromShopifyError("autoDraft", shopAndLocations.error));
  return draftLoadedShipment(
    deps,
    { order: order.value.order, shopAndLocations: shopAndLocations.value },
    fulfillmentOrderGid,
    options,
  );
}

/** The order (with its fulfillment orders) and the shop's locations, as read from Shopify. */
export type LoadedOrder = { order: ShopifyOrderForLabel; shopAndLocations: ShopifyShopAndLocations };

/**
 * draftFulfillmentOrderByRules for a caller that has read the order already: a bulk run reads
 * each order, and the shop's locations, once for all the order's shipments.
 */
export async function draftLoadedShipment(
  deps: AutoDraftDeps,
  loaded: LoadedOrder,
  fulfillmentOrderGid: FulfillmentOrderGid,
  options: DraftByRulesOptions,
): Promise<Result<AutoDraftResult, LabelError>> {
  const { db, shop } = deps;
  const data = loaded.order;
  const fo = data.fulfillmentOrders.find((f) => f.id === fulfillmentOrderGid);
  if (!fo) return ok({ status: "skipped", reason: "no longer shown on the order" });
  if (!fo.status || !DRAFTABLE_STATUSES.has(fo.status)) {
    return ok({ status: "skipped", reason: `fulfillment order is ${fo.status ?? "in an unknown state"}` });
  }
  const [active, settings, presets] = await Promise.all([
    findActiveLabel(db, shop, fulfillmentOrderGid),
    getShopSettings(db, shop),
    listBoxPresets(db, shop),
  ]);
  if (active) return ok({ status: "skipped", reason: "it already has a label" });
  // Pickup and local delivery need no label: not a problem to report either.
  if (fo.deliveryMethod?.methodType !== "SHIPPING") {
    return ok({ status: "skipped", reason: "not shipped by a carrier" });
  }
  const context = { ...loaded.shopAndLocations, fulfillmentOrderId: fo.id };
  const record = async (result: {
    status: "drafted" | "blocked";
    problems?: OutcomeProblem[];
    note?: string | null;
    labelId?: string;
  }) => {
    if (!options.recordOutcome) return;
    await recordAutoDraftOutcome(db, shop, {
      orderGid: data.id,
      orderName: data.name,
      fulfillmentOrderGid: fo.id,
      ...result,
    });
  };
  const block = async (problems: OutcomeProblem[]): Promise<Result<AutoDraftResult, LabelError>> => {
    await record({ status: "blocked", problems });
    return ok({ status: "blocked", problems });
  };

  let prefilled = prefillLabelRequest(data, settings, context);
  const facts = readAutoDraftFacts(data, fo, prefilled.request.from_address?.country ?? null);
  const match = matchAutoDraftRule(options.rules, facts);
  const notes = [describeChoice(match?.rule ?? null, match?.index ?? null)];
  if (match?.rule.boxPresetId) {
    const preset = presets.find((p) => p.id === match.rule.boxPresetId);
    if (preset) prefilled = prefillLabelRequest(data, { ...settings, box: preset }, context);
    else notes.push("Its box was deleted, so the default box was used.");
  }
  if (isBlocking(prefilled.problems)) return block(toOutcomeProblems(prefilled.problems));
  if (!deps.shipping) {
    return block([{ path: "settings.apiKey", message: "Add your shipping API key in Settings to get drafts made." }]);
  }

  const quote = await quoteLabel(deps.shipping, prefilled.request);
  if (!quote.ok) return settle(quote.error, block);
  const chosen = chooseAutoDraftRate(quote.value.rates, match?.rule ?? null);
  if (!chosen) return block([{ path: "rate", message: "No carrier offered a rate for this shipment." }]);
  if (chosen.note) notes.push(chosen.note);

  const draft = await createDraft(
    { db, shop, shipping: deps.shipping },
    {
      orderGid: data.id,
      orderName: data.name,
      fulfillmentOrderGid: fo.id,
      lineItems: prefilled.lineItems,
      request: prefilled.request,
      quote: chosen.rate,
      products: prefilled.products,
      shipToKey: shipToKeyOf(data, fo),
      ...(deps.now ? { now: deps.now } : {}),
    },
  );
  if (!draft.ok) return settle(draft.error, block);
  // The merchant (or another delivery) drafted it meanwhile: theirs stands, nothing to report.
  if (draft.value.existing) {
    if (options.recordOutcome) await clearAutoDraftOutcome(db, shop, fo.id);
    return ok({ status: "skipped", reason: "it already has a label" });
  }
  const note = notes.join(" ");
  await record({ status: "drafted", note, labelId: draft.value.label.id });
  return ok({ status: "drafted", labelId: draft.value.label.id, note });
}

// A failure the merchant can fix (an address the service refused, a detail preflight blocks) is
// stored for the Orders list; anything else is for the job to retry.
async function settle(
  error: LabelError,
  block: (problems: OutcomeProblem[]) => Promise<Result<AutoDraftResult, LabelError>>,
): Promise<Result<AutoDraftResult, LabelError>> {
  if (isTransientLabelError(error)) return err(error);
  const problems = error.problems ? toOutcomeProblems(error.problems) : [];
  return block(problems.length > 0 ? problems : [{ path: "label", message: error.message }]);
}
