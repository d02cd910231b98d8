import type { PrismaClient } from "@prisma/client";

import { isTransientLabelError, type LabelError } from "~/labels/label-errors";
import type { LabelView } from "~/labels/label-repository.server";
import type { BoxPreset } from "~/settings/settings";
import { checkForDraft, checkShipment, quoteRequestOf } from "~/shipments/check-shipment";
import {
  draftShipment,
  type DraftShippingPort,
  quoteShipment,
  type QuoteShippingPort,
} from "~/shipments/draft-shipment.server";
import { type LoadedShipment, loadShipment, locateShipment } from "~/shipments/load-shipment.server";
import { toGrams } from "~/shipments/parcels";
import type { PreflightProblem } from "~/shipping/preflight";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { isOpenToShip } from "~/shopify/fulfillment-order-choice";
import type { FulfillmentOrderGid } from "~/shopify/ids";
import type { ShopifyFulfillmentOrder, ShopifyOrderForLabel } from "~/shopify/orders";
import { err, ok, type Result } from "~/utils/result";

import { clearAutoDraftOutcome, type OutcomeProblem, recordAutoDraftOutcome } from "./auto-draft-outcomes.server";
import { type AutoDraftFacts, type AutoDraftRule, chooseAutoDraftRate, matchAutoDraftRule } from "./auto-draft-rules";
import { getAutoDraftSettings } from "./auto-draft-settings.server";

// The auto-draft job's use case: a fulfillment order Shopify says is ready to ship gets a draft
// label chosen by the shop's rules, or its problems are stored for the Orders list. It never
// buys. It is wiring over the pipeline (app/shipments: load, check, quote, draft); running it
// twice is harmless, as the fulfillment order's one active slot keeps one label.

export type AutoDraftDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  /** null: the shop has no (readable) shipping API key. */
  shipping: (QuoteShippingPort & DraftShippingPort) | null;
  now?: Date;
};

export type AutoDraftResult =
  | { status: "drafted"; labelId: string; label: LabelView; note: string | null }
  // retryAt: held after a lost draft answer, tried again automatically then (draft-shipment.server.ts).
  | { status: "blocked"; problems: OutcomeProblem[]; retryAt?: Date }
  /** `label`: the shipment's label that made drafting moot, when it has one. */
  | { status: "skipped"; reason: string; label?: LabelView };

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

/**
 * The fulfillment order's label is being created by a request that still holds its slot's lease:
 * it may finish, or it died (its worker, its database connection) and the slot is free once the
 * lease ends. Either way drafting is not over: the caller (the auto-draft job) comes back later,
 * where a skip would end the job with no label ever made.
 */
export type AutoDraftWaiting = { status: "waiting"; reason: string; label: LabelView; until: Date };

// Every claim sets a lease; a row without one is never taken over, so waiting for it would not end.
const isLiveCreation = (label: LabelView | null, now: Date): label is LabelView & { leaseUntil: Date } =>
  label?.status === "creating" && label.leaseUntil !== null && label.leaseUntil >= now;

export async function draftFulfillmentOrderAutomatically(
  deps: AutoDraftDeps,
  fulfillmentOrderGid: FulfillmentOrderGid,
): Promise<Result<AutoDraftResult | AutoDraftWaiting, LabelError>> {
  const autoDraft = await getAutoDraftSettings(deps.db, deps.shop);
  if (!autoDraft.enabled) return ok({ status: "skipped", reason: "automatic drafts are off" });
  const located = await locateShipment(deps, fulfillmentOrderGid);
  if (!located.ok) {
    if (located.error.code === "NOT_FOUND") return ok({ status: "skipped", reason: "not found in Shopify" });
    return err(located.error);
  }
  // Held, scheduled or closed: the order's larger read waits for the webhook that makes it ready.
  if (!isOpenToShip(located.value.status)) {
    return ok({ status: "skipped", reason: `fulfillment order is ${describeStatus(located.value.status)}` });
  }
  const shipment = await loadShipment(deps, located.value);
  if (!shipment.ok) {
    if (shipment.error.code === "NOT_FOUND") return ok({ status: "skipped", reason: "not found in Shopify" });
    return err(shipment.error);
  }
  const active = shipment.value.activeLabel;
  const now = deps.now ?? new Date();
  if (isLiveCreation(active, now)) {
    return ok({
      status: "waiting",
      reason: "its label is still being created",
      label: active,
      until: active.leaseUntil,
    });
  }
  return draftShipmentByRules(deps, shipment.value, { rules: autoDraft.rules, recordOutcome: true });
}

export type DraftByRulesOptions = {
  /** First match wins; none matching: the cheapest rate in the default box. */
  readonly rules: readonly AutoDraftRule[];
  /** Keep blocked and drafted outcomes for the Orders list (automatic drafts do; a bulk run keeps its own). */
  readonly recordOutcome: boolean;
};

/**
 * Drafts a loaded shipment's label as the rules choose, or says what blocks it: shared by
 * automatic drafts and bulk runs, which differ only in the rules and in where problems are kept.
 * The pipeline's steps in order: check, quote, choose a rate by the rules, check with it, draft.
 */
export async function draftShipmentByRules(
  deps: AutoDraftDeps,
  shipment: LoadedShipment,
  options: DraftByRulesOptions,
): Promise<Result<AutoDraftResult, LabelError>> {
  const { db, shop } = deps;
  const { order, fulfillmentOrder: fo } = shipment;
  const now = deps.now ?? new Date();
  // A label being created by a request that died (its slot's lease over) is no label: the draft
  // below takes its slot over. Any other active label stands.
  const active = shipment.activeLabel;
  if (active && !(active.status === "creating" && active.leaseUntil !== null && active.leaseUntil < now)) {
    return ok({ status: "skipped", reason: "it already has a label", label: active });
  }
  // On hold or scheduled: Shopify sends hold_released / scheduled_fulfillment_order_ready later.
  if (!isOpenToShip(fo.status)) {
    return ok({ status: "skipped", reason: `fulfillment order is ${describeStatus(fo.status)}` });
  }
  // Pickup and local delivery need no label: not a problem to report either.
  if (fo.deliveryMethod?.methodType !== "SHIPPING") {
    return ok({ status: "skipped", reason: "not shipped by a carrier" });
  }
  const record = async (result: {
    status: "drafted" | "blocked";
    problems?: OutcomeProblem[];
    note?: string | null;
    labelId?: string;
  }) => {
    if (!options.recordOutcome) return;
    await recordAutoDraftOutcome(db, shop, {
      orderGid: order.id,
      orderName: order.name,
      fulfillmentOrderGid: fo.id,
      ...result,
    });
  };
  const block = async (problems: OutcomeProblem[], retryAt?: Date): Promise<Result<AutoDraftResult, LabelError>> => {
    await record({ status: "blocked", problems });
    return ok({ status: "blocked", problems, ...(retryAt ? { retryAt } : {}) });
  };

  let check = checkShipment(shipment);
  const facts = readAutoDraftFacts(order, fo, check.prefilled.request.from_address?.country ?? null);
  const match = matchAutoDraftRule(options.rules, facts);
  const notes = [describeChoice(match?.rule ?? null, match?.index ?? null)];
  let box: BoxPreset | undefined;
  if (match?.rule.boxPresetId) {
    box = shipment.presets.find((p) => p.id === match.rule.boxPresetId);
    if (box) check = checkShipment(shipment, { box });
    else notes.push("Its box was deleted, so the default box was used.");
  }
  if (!check.ready) return block(toOutcomeProblems(check.problems));
  if (!deps.shipping) {
    return block([{ path: "settings.apiKey", message: "Add your shipping API key in Settings to get drafts made." }]);
  }

  const forQuote = quoteRequestOf(check);
  if (!forQuote.ok) return settle(forQuote.error, block);
  const quote = await quoteShipment(deps.shipping, forQuote.value);
  if (!quote.ok) return settle(quote.error, block);
  const chosen = chooseAutoDraftRate(quote.value.rates, match?.rule ?? null, check.request.options ?? null);
  if (!chosen) return block([{ path: "rate", message: "No carrier offered a rate for this shipment." }]);
  if (chosen.note) notes.push(chosen.note);

  const ready = checkForDraft(shipment, { ...(box ? { box } : {}), checked: check, quote: chosen.rate, now });
  if (!ready.ok) return settle(ready.error, block);
  const draft = await draftShipment({ db, shop, shipping: deps.shipping, now, automatic: true }, ready.value);
  if (!draft.ok) return settle(draft.error, block);
  // The merchant (or another delivery) drafted it meanwhile: theirs stands, nothing to report.
  if (draft.value.existing) {
    if (options.recordOutcome) await clearAutoDraftOutcome(db, shop, fo.id);
    return ok({ status: "skipped", reason: "it already has a label", label: draft.value.label });
  }
  const note = notes.join(" ");
  await record({ status: "drafted", note, labelId: draft.value.label.id });
  return ok({ status: "drafted", labelId: draft.value.label.id, label: draft.value.label, note });
}

const describeStatus = (status: string | null) => status ?? "in an unknown state";

// A failure the merchant can fix (an address the service refused, a detail preflight blocks) is
// stored for the Orders list; anything else is for the job to retry.
async function settle(
  error: LabelError,
  block: (problems: OutcomeProblem[], retryAt?: Date) => Promise<Result<AutoDraftResult, LabelError>>,
): Promise<Result<AutoDraftResult, LabelError>> {
  if (isTransientLabelError(error)) return err(error);
  const problems = error.problems ? toOutcomeProblems(error.problems) : [];
  return block(problems.length > 0 ? problems : [{ path: "label", message: error.message }], error.retryAt);
}
