import { z } from "zod";

import {
  CARRIERS,
  CONTENTS_TYPES,
  DIMENSION_UNITS,
  HAZMAT_OPTIONS,
  INSURANCE_MAX_CENTS,
  LABEL_FORMATS,
  LABEL_SIZES,
  parseAmountCents,
  PAYERS,
  SIGNATURE_OPTIONS,
  WEIGHT_UNITS,
} from "./vocabulary";

// Wire shapes of the shipping service, field names exactly as shipping-api.md and contract.md
// spell them (snake_case; camelCase only inside `billing`, as the spec has it).
// Request schemas describe what we send; response schemas are `.loose()` so fields the
// service adds later are kept rather than rejected.

export const CarrierSchema = z.enum(CARRIERS);
export type Carrier = z.infer<typeof CarrierSchema>;

const RequiredText = z.string().trim().min(1);

export const AddressSchema = z.object({
  name: RequiredText,
  company: z.string().optional(),
  street1: RequiredText,
  street2: z.string().nullish(),
  city: RequiredText,
  // Required only for US, CA and AU; others omit it or send null.
  state: z.string().nullish(),
  zip: RequiredText,
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  phone: z.string().nullish(),
  email: z.string().nullish(),
  delivery_instructions: z.string().nullish(),
  residential: z.boolean().optional(),
});
export type Address = z.infer<typeof AddressSchema>;

export const ParcelSchema = z.object({
  weight: z.number(),
  length: z.number(),
  width: z.number(),
  height: z.number(),
  weight_unit: z.enum(WEIGHT_UNITS).optional(),
  dimension_unit: z.enum(DIMENSION_UNITS).optional(),
});
export type Parcel = z.infer<typeof ParcelSchema>;

export const CustomsSchema = z.object({
  description: RequiredText,
  // Declared value in USD (a number on the wire, per the spec).
  value: z.number(),
  contents_type: z.enum(CONTENTS_TYPES).optional(),
  quantity: z.number().int().optional(),
  hs_code: z.string().optional(),
  country_of_origin: z.string().optional(),
  tax_id: z.string().optional(),
  tax_id_type: z.string().optional(),
  eel_pfc: z.string().optional(),
});
export type Customs = z.infer<typeof CustomsSchema>;

export const BillingSchema = z.object({
  payer: z.enum(PAYERS),
  accountNumber: z.string().optional(),
  countryCode: z.string().optional(),
  postalCode: z.string().optional(),
});
export type Billing = z.infer<typeof BillingSchema>;

const ShipDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

// ---- label options (contract.md, "Label options") ----

export const InsuranceOptionSchema = z.strictObject({
  amount: z
    .string()
    .regex(/^\d+(\.\d{1,2})?$/, 'a decimal amount such as "250.00"')
    .refine((amount) => {
      const cents = parseAmountCents(amount);
      return cents !== null && cents > 0 && cents <= INSURANCE_MAX_CENTS;
    }, "must be greater than 0 and at most 5000.00"),
  currency: z.literal("USD"),
});
export type InsuranceOption = z.infer<typeof InsuranceOptionSchema>;

/**
 * `options` on label creation and rates. Strict: the service answers VALIDATION_ERROR for an
 * unknown inner field, so we refuse it before sending. `ship_date` keeps its meaning (the
 * request builders send it at top level).
 */
export const LabelOptionsSchema = z.strictObject({
  insurance: InsuranceOptionSchema.optional(),
  signature: z.enum(SIGNATURE_OPTIONS).optional(),
  hazmat: z.enum(HAZMAT_OPTIONS).optional(),
  ship_date: ShipDateSchema.optional(),
});
export type LabelOptions = z.infer<typeof LabelOptionsSchema>;

export const CreateLabelRequestSchema = z.object({
  rate_id: z.string().optional(),
  from_address: AddressSchema,
  to_address: AddressSchema,
  parcel: ParcelSchema.optional(),
  parcels: z.array(ParcelSchema).optional(),
  carrier: CarrierSchema.optional(),
  service: z.string().optional(),
  service_code: z.string().optional(),
  carrier_account_id: z.string().optional(),
  label_format: z.enum(LABEL_FORMATS).optional(),
  label_size: z.enum(LABEL_SIZES).optional(),
  reference: z.string().optional(),
  label_custom_fields: z.record(z.string(), z.string()).optional(),
  options: LabelOptionsSchema.optional(),
  customs: CustomsSchema.optional(),
  ship_date: ShipDateSchema.optional(),
  billing: BillingSchema.optional(),
  platform: z.string().optional(),
  platform_order_id: z.string().optional(),
  order_id: z.string().optional(),
  channel: z.string().optional(),
  external_order_id: z.string().optional(),
});
export type CreateLabelRequest = z.infer<typeof CreateLabelRequestSchema>;

// Contract: POST /v1/rates request.
export const RatesRequestSchema = z.object({
  from_address: AddressSchema,
  to_address: AddressSchema,
  parcel: ParcelSchema.optional(),
  parcels: z.array(ParcelSchema).optional(),
  carrier: CarrierSchema.optional(),
  carrier_account_id: z.string().optional(),
  ship_date: ShipDateSchema.optional(),
  // Rates are quoted for these options; a label made from the rate must carry the same ones.
  options: LabelOptionsSchema.optional(),
});
export type RatesRequest = z.infer<typeof RatesRequestSchema>;

// ---- responses ----

export const RateSchema = z
  .object({
    rate_id: z.string(),
    service_code: z.string(),
    carrier: z.string(),
    service: z.string(),
    amount: z.string(),
    currency: z.string(),
    delivery_days: z.number().nullish(),
    ship_date: z.string(),
    expires_at: z.string(),
  })
  .loose();
export type Rate = z.infer<typeof RateSchema>;

export const RatesResponseSchema = z
  .object({
    rates: z.array(RateSchema),
    address_validation: z.unknown().optional(),
    request_id: z.string().optional(),
  })
  .loose();
export type RatesResponse = z.infer<typeof RatesResponseSchema>;

export const DraftLabelSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    rate: z.null().optional(),
    label_url: z.null().optional(),
    package_count: z.number().int().optional(),
    warnings: z.record(z.string(), z.unknown()).default({}),
    carrier: z.string().nullish(),
    service_code: z.string().nullish(),
    rate_id: z.string().nullish(),
    ship_date: z.string().nullish(),
    request_id: z.string().optional(),
  })
  .loose();
export type DraftLabel = z.infer<typeof DraftLabelSchema>;

const PurchasedRateSchema = z
  .object({
    rate_id: z.string().nullish(),
    service_code: z.string(),
    carrier: z.string(),
    service: z.string().optional(),
    amount: z.string(),
    currency: z.string(),
  })
  .loose();

export const LABEL_STATUSES = ["draft", "purchased", "void_pending", "voided"] as const;
export const LabelStatusSchema = z.enum(LABEL_STATUSES);
export type LabelStatus = z.infer<typeof LabelStatusSchema>;

export const REFUND_STATUSES = ["pending", "refunded", "rejected"] as const;

/** A void's refund (contract.md, "POST /v1/labels/{id}/void"); `reason` is `scanned` when rejected. */
export const RefundSchema = z
  .object({
    amount: z.string(),
    currency: z.string(),
    status: z.enum(REFUND_STATUSES),
    requested_at: z.string(),
    reason: z.string().nullish(),
  })
  .loose();
export type Refund = z.infer<typeof RefundSchema>;

export const LabelRecordSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    rate: PurchasedRateSchema.nullable().optional(),
    label_url: z.string().nullable().optional(),
    package_count: z.number().int().optional(),
    tracking_numbers: z.array(z.string()).optional(),
    charged: z.string().optional(),
    // Present once a void was asked for; null or absent before.
    refund: RefundSchema.nullish(),
  })
  .loose();
export type LabelRecord = z.infer<typeof LabelRecordSchema>;

/** The answer to a void (200): the label record, pending or voided, with its refund. */
export const VoidedLabelSchema = LabelRecordSchema.extend({
  status: z.enum(["void_pending", "voided"]),
  refund: RefundSchema,
  request_id: z.string().optional(),
});
export type VoidedLabel = z.infer<typeof VoidedLabelSchema>;

/** Why the service refuses a void (409 NOT_VOIDABLE, `error.reason`). */
export const NOT_VOIDABLE_REASONS = ["draft", "scanned", "too_old"] as const;
export type NotVoidableReason = (typeof NOT_VOIDABLE_REASONS)[number];

export const PurchasedLabelSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    rate: PurchasedRateSchema,
    label_url: z.string(),
    label_format: z.string().optional(),
    // A bought label has a tracking number per box; none would leave nothing to write back.
    tracking_numbers: z.array(z.string().trim().min(1)).min(1),
    tracking_url: z.string().nullish(),
    package_count: z.number().int().optional(),
    // What the balance lost; optional because a label record read back may not carry it.
    charged: z.string().optional(),
    request_id: z.string().optional(),
  })
  .loose();
export type PurchasedLabel = z.infer<typeof PurchasedLabelSchema>;

export const AddressValidationRequestSchema = z.object({
  street1: RequiredText,
  street2: z.string().nullish(),
  city: RequiredText,
  state: z.string().regex(/^[A-Za-z]{2}$/),
  zip: z.string().regex(/^\d{5}(-?\d{4})?$/),
  country: z.literal("US").optional(),
});
export type AddressValidationRequest = z.infer<typeof AddressValidationRequestSchema>;

export const AddressValidationResultSchema = z
  .object({
    address: z
      .object({
        street1: z.string(),
        street2: z.string().nullish(),
        city: z.string(),
        state: z.string(),
        zip: z.string(),
        zip4: z.string().nullish(),
        country: z.string().optional(),
      })
      .loose(),
    zip4: z.string().nullish(),
    carrier_route: z.string().nullish(),
    dpv: z
      .object({
        match_code: z.string(),
        deliverable: z.boolean(),
        vacant: z.boolean().optional(),
      })
      .loose(),
    residential: z.boolean(),
    messages: z.array(z.unknown()).optional(),
    billed: z.string(),
    mocked: z.boolean().optional(),
    request_id: z.string().optional(),
  })
  .loose();
export type AddressValidationResult = z.infer<typeof AddressValidationResultSchema>;

export const ErrorBodySchema = z
  .object({
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        fields: z.array(z.object({ field: z.string(), message: z.string() }).loose()).optional(),
      })
      .loose(),
    request_id: z.string().optional(),
  })
  .loose();
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

// ---------- Events (contract.md, "Events") ----------

/** Every event type the contract defines. */
export const SHIPPING_EVENT_TYPES = [
  "label.purchased",
  "label.tracking_updated",
  "label.voided",
  "label.void_rejected",
] as const;
export type ShippingEventType = (typeof SHIPPING_EVENT_TYPES)[number];

/**
 * The types the app's endpoint subscribes to: the ones it applies. The void decisions join this
 * list when the app applies them; until then the service does not send them to us.
 */
export const SUBSCRIBED_EVENT_TYPES = [
  "label.purchased",
  "label.tracking_updated",
  "label.voided",
  "label.void_rejected",
] as const satisfies readonly ShippingEventType[];

export const WebhookEndpointRequestSchema = z.object({
  url: z.url(),
  events: z.array(z.enum(SHIPPING_EVENT_TYPES)).min(1),
});
export type WebhookEndpointRequest = z.infer<typeof WebhookEndpointRequestSchema>;

export const WebhookEndpointSchema = z
  .object({ id: z.string().min(1), url: z.string(), events: z.array(z.string()) })
  .loose();
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const RegisteredWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z.string().min(1),
  request_id: z.string().optional(),
});
export type RegisteredWebhookEndpoint = z.infer<typeof RegisteredWebhookEndpointSchema>;

export const WebhookEndpointListSchema = z.object({ webhook_endpoints: z.array(WebhookEndpointSchema) }).loose();

export const TRACKING_STATUSES = [
  "pre_transit",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "attempted_delivery",
  "exception",
  "returned",
] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export function isTrackingStatus(status: string): status is TrackingStatus {
  return (TRACKING_STATUSES as readonly string[]).includes(status);
}

const EventEnvelope = {
  id: z.string().min(1),
  created_at: z.string(),
  organization: z.string().optional(),
};

export const LabelPurchasedEventSchema = z
  .object({
    ...EventEnvelope,
    type: z.literal("label.purchased"),
    data: z.object({
      label: LabelRecordSchema.extend({
        platform: z.string().nullish(),
        platform_order_id: z.string().nullish(),
        tracking_url: z.string().nullish(),
      }),
    }),
  })
  .loose();

export const TrackingUpdatedEventSchema = z
  .object({
    ...EventEnvelope,
    type: z.literal("label.tracking_updated"),
    data: z.object({
      label_id: z.string().min(1),
      tracking_number: z.string().min(1),
      status: z.enum(TRACKING_STATUSES),
      status_detail: z.string().nullish(),
      occurred_at: z.string(),
      estimated_delivery_at: z.string().nullish(),
      location: z
        .object({
          city: z.string().nullish(),
          state: z.string().nullish(),
          zip: z.string().nullish(),
          country: z.string().nullish(),
        })
        .nullish(),
    }),
  })
  .loose();

const VoidDecisionLabel = LabelRecordSchema.extend({
  refund: RefundSchema,
  platform: z.string().nullish(),
  platform_order_id: z.string().nullish(),
});

function voidDecisionEvent<T extends "label.voided" | "label.void_rejected">(type: T) {
  return z.object({ ...EventEnvelope, type: z.literal(type), data: z.object({ label: VoidDecisionLabel }) }).loose();
}

/** The carrier refunded a void: `data.label` is `voided` with `refund.status` `refunded`. */
export const LabelVoidedEventSchema = voidDecisionEvent("label.voided");

/** The carrier refused a void (a parcel was scanned): `data.label` is `purchased` again, refund `rejected`. */
export const LabelVoidRejectedEventSchema = voidDecisionEvent("label.void_rejected");

export const ShippingEventSchema = z.discriminatedUnion("type", [
  LabelPurchasedEventSchema,
  TrackingUpdatedEventSchema,
  LabelVoidedEventSchema,
  LabelVoidRejectedEventSchema,
]);
export type ShippingEvent = z.infer<typeof ShippingEventSchema>;
export type LabelPurchasedEvent = z.infer<typeof LabelPurchasedEventSchema>;
export type TrackingUpdatedEvent = z.infer<typeof TrackingUpdatedEventSchema>;
export type LabelVoidedEvent = z.infer<typeof LabelVoidedEventSchema>;
export type LabelVoidRejectedEvent = z.infer<typeof LabelVoidRejectedEventSchema>;
