// A label record as the API returns it (drafts and purchased labels), with its absolute file URL
// and the carrier's tracking page.

import { formatCents } from "../config";
import type { CoreRequest, ShippingCore } from "../core";
import type { Carrier } from "../pricing";
import type { LabelRecord, RefundRecord } from "../state";
import type { JsonObject } from "../validation";

function makeTrackingUrl(carrier: Carrier, tracking: string): string {
  switch (carrier) {
    case "UPS":
      return `https://www.ups.com/track?tracknum=${tracking}`;
    case "USPS":
      return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${tracking}`;
    case "FEDEX":
      return `https://www.fedex.com/fedextrack/?trknbr=${tracking}`;
    case "DHL":
      return `https://www.dhl.com/en/express/tracking.html?AWB=${tracking}`;
  }
}

/** Where the record is read from: the request's origin makes the file URL absolute. */
type RecordSource = { req: Pick<CoreRequest, "origin"> };

function getPublicOrigin(core: ShippingCore, ctx: RecordSource): string {
  return (core.baseUrl ?? ctx.req.origin).replace(/\/$/, "");
}

function refundToWire(refund: RefundRecord): JsonObject {
  const wire: JsonObject = {
    amount: formatCents(refund.amountCents),
    currency: "USD",
    status: refund.status,
    requested_at: refund.requestedAt,
  };
  if (refund.decidedAt !== null) wire.decided_at = refund.decidedAt;
  if (refund.reason !== null) wire.reason = refund.reason;
  return wire;
}

export function toWire(core: ShippingCore, label: LabelRecord, ctx: RecordSource): JsonObject {
  const purchase = label.purchase;
  const wire: JsonObject = {
    id: label.id,
    status: label.status,
    rate:
      purchase === null
        ? null
        : {
            rate_id: purchase.rate.id,
            service_code: purchase.rate.service.serviceCode,
            carrier: purchase.rate.service.carrier,
            service: purchase.rate.service.service,
            amount: formatCents(purchase.rate.amountCents),
            currency: "USD",
          },
    label_url: purchase === null ? null : `${getPublicOrigin(core, ctx)}/files/${label.id}.${label.labelFormat}`,
  };
  if (label.multiPiece || purchase !== null) wire.package_count = label.parcels.length;
  Object.assign(wire, {
    carrier: label.carrier,
    service: label.service.service,
    service_code: label.service.serviceCode,
    rate_id: label.rate?.id ?? null,
    ship_date: label.shipDate ?? label.rate?.shipDate ?? null,
    from_address: label.from,
    to_address: label.to,
    [label.multiPiece ? "parcels" : "parcel"]: label.multiPiece ? label.parcels : label.parcels[0],
    customs: label.customs,
    billing: label.billing,
    carrier_account_id: label.carrierAccountId,
    label_format: label.labelFormat,
    label_size: label.labelSize,
    reference: label.reference,
    platform: label.platform,
    platform_order_id: label.platformOrderId,
    channel: label.platform,
    external_order_id: label.platformOrderId,
    order_id: label.orderId,
    label_custom_fields: label.labelCustomFields,
    options: label.options,
    warnings: label.warnings,
    created_at: label.createdAt,
  });
  if (purchase !== null) {
    const master = purchase.trackingNumbers[0] ?? "";
    Object.assign(wire, {
      tracking_numbers: purchase.trackingNumbers,
      tracking_url: makeTrackingUrl(label.carrier, master),
      charged: formatCents(purchase.chargedCents),
      currency: "USD",
      purchased_at: purchase.purchasedAt,
      refund: label.refund === null ? null : refundToWire(label.refund),
    });
  }
  return wire;
}
