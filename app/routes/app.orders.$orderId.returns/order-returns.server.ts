import { type LabelError, labelError } from "~/labels/label-errors";
import { isReturnLabel } from "~/labels/label-repository.server";
import type { BuyDeps } from "~/shipments/buy-label.server";
import { checkReturn } from "~/shipments/check-shipment";
import { isActiveLabel } from "~/shipments/load-shipment.server";
import {
  approveReturn,
  buyReturnLabel,
  type LoadedReturn,
  loadReturns,
  quoteReturn,
  readReturnsOfOrder,
  type ReturnEdits,
  returnOf,
} from "~/shipments/return-shipment.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import type { LocationGid, OrderGid, ReturnGid } from "~/shopify/ids";
import type { ShopifyReturn, ShopifyReturnStatus } from "~/shopify/returns";
import { err, ok, type Result } from "~/utils/result";

import { type LabelSummary, type OrderPageDeps, toLabelSummary } from "../app.orders.$orderId/order-label-page.server";

// The order page's Returns section (ADR 23): the order's Shopify returns, each with what the app
// can do for it (approve a request, make its return label) and the label it has; and the
// section's actions, each one use case over the return pipeline (app/shipments).

const STATUS_TEXT: Record<ShopifyReturnStatus, string> = {
  REQUESTED: "Requested by the customer",
  OPEN: "Open",
  DECLINED: "Declined",
  CLOSED: "Closed",
  CANCELED: "Cancelled",
};

export type ReturnSection = {
  id: ReturnGid;
  name: string;
  status: ShopifyReturnStatus | null;
  statusText: string;
  items: { title: string; quantity: number }[];
  /** A customer's request: Shopify takes a return label only once it is approved. */
  canApprove: boolean;
  /** Open, with items to send back and no label on it in Shopify yet: a label can be made. */
  canCreateLabel: boolean;
  /** The label Shopify holds for this return (this app's, or one added elsewhere). */
  shopifyLabel: { trackingNumber: string | null; trackingUrl: string | null; labelUrl: string | null } | null;
  /** This app's label for the return, when it has one. */
  label: LabelSummary | null;
  /** The label as prefilled: from the customer, to the return location. */
  prefill: {
    from: string;
    to: string;
    /** One box: its weight (null when Shopify had none), which the merchant may correct. */
    weight: number | null;
    weightUnit: string;
    /** Over the default box's limit: the boxes it was packed into and their weight in all. */
    boxes: { count: number; totalWeight: number } | null;
    /** The location the parcel goes back to (the one that shipped it, unless chosen). */
    returnLocationId: LocationGid | null;
    international: boolean;
  } | null;
  problems: KnownPreflightProblem[];
};

export type OrderReturnsView = {
  returns: ReturnSection[];
  /** Where a return may be sent back to: the shop's active locations. */
  locations: { id: LocationGid; name: string }[];
  shopifyProblems: string[];
  notifyCustomer: boolean;
};

const oneLine = (address: LabelRequestInput["from_address"]) =>
  [address?.name, address?.city, address?.state, address?.country].filter(Boolean).join(", ");

function toSection(facts: LoadedReturn | null, ret: ShopifyReturn, label: LabelSummary | null): ReturnSection {
  const delivery = ret.reverseFulfillmentOrders
    .flatMap((rfo) => rfo.reverseDeliveries)
    .find((d) => d.labelUrl !== null || d.trackingNumber !== null);
  const check = facts ? checkReturn(facts) : null;
  const request = check?.prefilled.request;
  return {
    id: ret.id,
    name: ret.name,
    status: ret.status,
    statusText: ret.status ? STATUS_TEXT[ret.status] : "Status unknown to this app",
    items: ret.items.map((item) => ({ title: item.lineItem.title, quantity: item.quantity })),
    canApprove: ret.status === "REQUESTED",
    canCreateLabel: Boolean(check) && !delivery && !label,
    shopifyLabel: delivery
      ? { trackingNumber: delivery.trackingNumber, trackingUrl: delivery.trackingUrl, labelUrl: delivery.labelUrl }
      : null,
    label,
    prefill: request
      ? {
          from: oneLine(request.from_address),
          to: oneLine(request.to_address),
          weight: request.parcel?.weight ?? null,
          weightUnit: request.parcel?.weight_unit ?? request.parcels?.[0]?.weight_unit ?? "lb",
          boxes:
            request.parcels && request.parcels.length > 1
              ? {
                  count: request.parcels.length,
                  totalWeight: Math.round(request.parcels.reduce((sum, p) => sum + (p?.weight ?? 0), 0) * 100) / 100,
                }
              : null,
          returnLocationId: check?.prefilled.returnLocationId ?? null,
          international: Boolean(
            request.from_address?.country &&
            request.to_address?.country &&
            request.from_address.country !== request.to_address.country,
          ),
        }
      : null,
    problems: check && !label ? check.problems : [],
  };
}

/** The order's returns as the section shows them. */
export async function loadOrderReturns(
  deps: OrderPageDeps,
  orderGid: OrderGid,
): Promise<Result<OrderReturnsView, LabelError>> {
  // Most orders have no return: then the returns' own read (a few points) is all the section
  // costs, not the order's and the shop's reads besides, which the page's loader has just made.
  const read = await readReturnsOfOrder(deps, orderGid);
  if (!read.ok) return read;
  if (read.value.returns.length === 0) {
    return ok({
      returns: [],
      locations: [],
      shopifyProblems: read.value.problems.map((p) => p.message),
      notifyCustomer: false,
    });
  }
  const loaded = await loadReturns(deps, orderGid, read.value);
  if (!loaded.ok) return loaded;
  const returnLabels = loaded.value.labels.filter(isReturnLabel);
  const returns = loaded.value.returns.returns.map((ret) => {
    const facts = ret.status === "OPEN" ? returnOf(loaded.value, ret.id) : null;
    const rfoIds = new Set(ret.reverseFulfillmentOrders.map((rfo) => rfo.id));
    // The active label, else the latest one (a voided return label still says what happened).
    const mine = returnLabels.filter((l) => l.returnGid === ret.id && rfoIds.has(l.fulfillmentOrderGid));
    const label = mine.find(isActiveLabel) ?? mine.at(-1) ?? null;
    return toSection(facts?.ok ? facts.value : null, ret, label ? toLabelSummary(label) : null);
  });
  return ok({
    returns,
    locations: loaded.value.shopAndLocations.locations
      .filter((l) => l.isActive)
      .map((l) => ({ id: l.id, name: l.name })),
    shopifyProblems: [...loaded.value.shopifyProblems],
    notifyCustomer: loaded.value.settings.notifyCustomer,
  });
}

async function requireReturn(
  deps: OrderPageDeps,
  input: { orderGid: OrderGid; returnGid: ReturnGid; returnLocationId?: LocationGid | null },
): Promise<Result<LoadedReturn, LabelError>> {
  const loaded = await loadReturns(deps, input.orderGid);
  if (!loaded.ok) return loaded;
  return returnOf(loaded.value, input.returnGid, input.returnLocationId ?? null);
}

/** Approves the customer's request in Shopify, so the return can take a label. */
export async function approveReturnForOrderPage(
  deps: OrderPageDeps,
  input: { orderGid: OrderGid; returnGid: ReturnGid },
): Promise<Result<{ status: ShopifyReturnStatus | null }, LabelError>> {
  // The returns alone (not the whole order): only a return of this order, in this shop's store,
  // is approved from its page.
  const returns = await readReturnsOfOrder(deps, input.orderGid);
  if (!returns.ok) return returns;
  if (!returns.value.returns.some((r) => r.id === input.returnGid)) {
    return err(
      labelError("NOT_FOUND", "This return is no longer on the order in Shopify.", `approve: no ${input.returnGid}`),
    );
  }
  const approved = await approveReturn(deps, input.returnGid);
  return approved.ok ? ok({ status: approved.value }) : approved;
}

export type ReturnActionDeps = OrderPageDeps & { shipping: ShippingClient; staffMemberId: string | null };

/** Rates for the return label as prefilled, with the merchant's weight when they gave one. */
export async function quoteReturnForOrderPage(
  deps: ReturnActionDeps,
  input: { orderGid: OrderGid; returnGid: ReturnGid; edits: ReturnEdits; returnLocationId: LocationGid | null },
): Promise<Result<{ rates: Rate[] }, LabelError>> {
  const facts = await requireReturn(deps, input);
  if (!facts.ok) return facts;
  return quoteReturn(deps, facts.value, input.edits);
}

/** Drafts and buys the return label at the confirmed rate; Shopify then holds it on the return. */
export async function buyReturnLabelForOrderPage(
  deps: ReturnActionDeps & Pick<BuyDeps, "now">,
  input: {
    orderGid: OrderGid;
    returnGid: ReturnGid;
    rate: Rate;
    edits: ReturnEdits;
    notifyCustomer: boolean;
    returnLocationId: LocationGid | null;
  },
): Promise<Result<{ label: LabelSummary; writeBackError: string | null }, LabelError>> {
  const facts = await requireReturn(deps, input);
  if (!facts.ok) return facts;
  const now = deps.now?.() ?? new Date();
  const bought = await buyReturnLabel(deps, facts.value, {
    quote: input.rate,
    edits: input.edits,
    notifyCustomer: input.notifyCustomer,
    now,
  });
  if (!bought.ok) return bought;
  return ok({ label: toLabelSummary(bought.value.label), writeBackError: bought.value.writeBackError });
}
