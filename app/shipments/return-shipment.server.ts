import type { PrismaClient } from "@prisma/client";

import { discardDraft } from "~/labels/discard-draft.server";
import { fromShopifyError, type LabelError, labelError, labelNotFound } from "~/labels/label-errors";
import { isReturnLabel, type ReturnLabelView } from "~/labels/label-repository.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import type { LocationGid, OrderGid, ReturnGid } from "~/shopify/ids";
import {
  approveReturnRequest,
  readOrderReturns,
  type ShopifyOrderReturns,
  type ShopifyReturn,
  type ShopifyReverseFulfillmentOrder,
} from "~/shopify/returns";
import { err, ok, type Result } from "~/utils/result";

import { type BoughtLabel, type BuyDeps, buyLabel } from "./buy-label.server";
import { checkReturn, checkReturnForDraft, quoteRequestOf } from "./check-shipment";
import { awaitOtherDraft, draftShipment } from "./draft-shipment.server";
import { isActiveLabel, type LoadedOrder, loadOrder, type ShipmentDeps } from "./load-shipment.server";
import { checkQuotedRequest, confirmQuotedRate, quoteAndRecordRates } from "./rate-quotes.server";
import { prefillReturnLabel, type ReturnFacts } from "./return-prefill";

// Return labels through the one pipeline (ADR 23): load (the order and its Shopify returns) →
// check (checkReturn, the same judge as outbound) → quote → draft (the reverse fulfillment order's
// one active slot) → buy (buyLabel: its spend guard asks Shopify that the return is still open,
// and its write-back attaches the label to the return as a reverse delivery).

export type LoadedReturns = LoadedOrder & { readonly returns: ShopifyOrderReturns };

export type LoadedReturn = ReturnFacts & {
  readonly loaded: LoadedReturns;
  /** The reverse fulfillment order's one active label (creating … fulfilled), if any. */
  readonly activeLabel: ReturnLabelView | null;
};

/**
 * The order, its labels and the shop's context, with the order's Shopify returns (read here
 * unless the caller read them already: readReturnsOfOrder).
 */
export async function loadReturns(
  deps: ShipmentDeps,
  orderGid: OrderGid,
  preread?: ShopifyOrderReturns,
): Promise<Result<LoadedReturns, LabelError>> {
  const [loaded, returns] = await Promise.all([
    loadOrder(deps, orderGid),
    preread ? ok(preread) : readReturnsOfOrder(deps, orderGid),
  ]);
  if (!loaded.ok) return loaded;
  if (!returns.ok) return returns;
  return ok({
    ...loaded.value,
    returns: returns.value,
    shopifyProblems: [...loaded.value.shopifyProblems, ...returns.value.problems.map((p) => p.message)],
  });
}

/** The order's Shopify returns alone (one cheap read); an order no longer in Shopify is NOT_FOUND. */
export async function readReturnsOfOrder(
  deps: Pick<ShipmentDeps, "admin">,
  orderGid: OrderGid,
): Promise<Result<ShopifyOrderReturns, LabelError>> {
  const returns = await readOrderReturns(deps.admin, orderGid);
  if (returns.ok) return returns;
  return err(
    returns.error.code === "NOT_FOUND"
      ? labelError("NOT_FOUND", "This order was not found in Shopify.", returns.error.logMessage)
      : fromShopifyError("loadReturns", returns.error),
  );
}

/** What a return label is made from: an OPEN return's open reverse fulfillment order. */
export function openReverseFulfillmentOrder(ret: ShopifyReturn): ShopifyReverseFulfillmentOrder | null {
  return ret.reverseFulfillmentOrders.find((rfo) => rfo.status === "OPEN") ?? null;
}

/** One return of the loaded order, as the return label's check needs it. */
export function returnOf(
  loaded: LoadedReturns,
  returnGid: ReturnGid,
  returnLocationId: LocationGid | null = null,
): Result<LoadedReturn, LabelError> {
  if (returnLocationId && !loaded.shopAndLocations.locations.some((l) => l.id === returnLocationId && l.isActive)) {
    return err(
      labelError(
        "INVALID_STATE",
        "Send it back to: choose one of the shop's active locations.",
        `returnOf: ${returnLocationId} is not an active location of the shop`,
      ),
    );
  }
  const ret = loaded.returns.returns.find((r) => r.id === returnGid);
  if (!ret) {
    return err(
      labelError("NOT_FOUND", "This return is no longer on the order in Shopify.", `returnOf: no ${returnGid}`),
    );
  }
  const rfo = openReverseFulfillmentOrder(ret);
  if (!rfo) {
    return err(
      labelError(
        "INVALID_STATE",
        ret.status === "REQUESTED"
          ? `Return ${ret.name} is still a request: approve it before making its label.`
          : `Return ${ret.name} has nothing left to send back.`,
        `returnOf: ${returnGid} is ${ret.status ?? "unknown"} without an open reverse fulfillment order`,
      ),
    );
  }
  const activeLabel =
    loaded.labels.filter(isReturnLabel).find((l) => l.fulfillmentOrderGid === rfo.id && isActiveLabel(l)) ?? null;
  return ok({
    loaded,
    order: loaded.order,
    ret,
    reverseFulfillmentOrder: rfo,
    shopAndLocations: loaded.shopAndLocations,
    settings: loaded.settings,
    returnLocationId,
    activeLabel,
  });
}

/** Approves a customer's return request in Shopify (REQUESTED → OPEN), so it can take a label. */
export async function approveReturn(
  deps: Pick<ShipmentDeps, "admin">,
  returnGid: ReturnGid,
): Promise<Result<ShopifyReturn["status"], LabelError>> {
  const approved = await approveReturnRequest(deps.admin, returnGid);
  if (!approved.ok) return err(fromShopifyError("approveReturn", approved.error));
  return ok(approved.value.status);
}

/** The merchant's edits to a return label's prefill: the parcel's weight and where it goes. */
export type ReturnEdits = { readonly weight?: number | null };

export function editedReturnRequest(request: LabelRequestInput, edits: ReturnEdits): LabelRequestInput {
  if (edits.weight === undefined || edits.weight === null || !request.parcel) return request;
  return { ...request, parcel: { ...request.parcel, weight: edits.weight } };
}

/** Rates for a return label (free). */
export async function quoteReturn(
  deps: { db: PrismaClient; shop: string; shipping: Pick<ShippingClient, "getRates"> },
  facts: LoadedReturn,
  edits: ReturnEdits,
): Promise<Result<{ rates: Rate[] }, LabelError>> {
  // Prefilled once; the check judges the request with the merchant's edits.
  const prefilled = prefillReturnLabel(facts);
  const check = checkReturn(facts, { prefilled, request: editedReturnRequest(prefilled.request, edits) });
  const ready = quoteRequestOf(check);
  if (!ready.ok) return ready;
  // Kept server-side: the label is bought at the price the service answered here (issue 40).
  const quoted = await quoteAndRecordRates(deps, ready.value);
  return quoted.ok ? ok({ rates: quoted.value.rates }) : quoted;
}

/**
 * Drafts the return label at the chosen rate (once: the reverse fulfillment order's slot) and buys
 * it. A draft left by an earlier attempt at another rate is discarded first (drafts cost nothing),
 * so what is bought is what the merchant confirmed.
 */
export async function buyReturnLabel(
  deps: BuyDeps & { shipping: ShippingClient; sleep?: (ms: number) => Promise<void> },
  facts: LoadedReturn,
  input: { quote: Rate; edits: ReturnEdits; notifyCustomer: boolean; now: Date },
): Promise<Result<BoughtLabel, LabelError>> {
  const prefilled = prefillReturnLabel(facts);
  const request = editedReturnRequest(prefilled.request, input.edits);
  // Bought in the same click: the price is the server's own quote under the posted id, and a
  // post that differs from it is refused before anything is drafted or charged.
  const quoted = await confirmQuotedRate(deps, input.quote, input.now);
  if (!quoted.ok) return quoted;
  const quote = quoted.value.rate;
  const ready = checkReturnForDraft(facts, { quote, request, now: input.now, checked: { prefilled } });
  if (!ready.ok) return ready;
  const asQuoted = checkQuotedRequest(quoted.value, ready.value.request);
  if (!asQuoted.ok) return asQuoted;
  const stale = facts.activeLabel;
  if (stale?.status === "draft" && stale.rateId !== quote.rate_id) {
    const discarded = await discardDraft({ db: deps.db, shop: deps.shop, shipping: deps.shipping }, stale.id);
    if (!discarded.ok) return discarded;
  }
  const drafted = await draftShipment({ db: deps.db, shop: deps.shop, shipping: deps.shipping }, ready.value);
  if (!drafted.ok) return drafted;
  if (drafted.value.existing) {
    // Another click (a second tab) holds the return's one label: wait for its draft, then buy
    // that label (a purchase already running is waited for, one already made is answered), but
    // never a draft of another service than the one this merchant chose.
    const other = await awaitOtherDraft(deps, drafted.value.label);
    if (!other) return err(labelNotFound("buyReturnLabel", deps.shop, drafted.value.label.id));
    if (other.status === "draft" && other.rateId !== quote.rate_id) {
      return err(
        labelError(
          "INVALID_STATE",
          `This return got another label meanwhile${other.serviceName ? ` (${other.serviceName})` : ""}, from another tab. Nothing was bought: reload the page to see it.`,
          `buyReturnLabel: ${other.id} is a draft of rate ${other.rateId ?? "none"}, not ${quote.rate_id}`,
        ),
      );
    }
  }
  return buyLabel(deps, drafted.value.label.id, { notifyCustomer: input.notifyCustomer });
}
