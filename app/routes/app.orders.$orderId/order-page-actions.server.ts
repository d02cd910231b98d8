import { z } from "zod";

import type { LabelRequestInput } from "~/shipping/preflight";
import { RateSchema } from "~/shipping/schemas";
import { JsonOf } from "~/utils/json-field.server";

// What the order page posts, parsed by its route's action. Server-only: the page's browser code
// never parses its own posts, and a validator built at module level would ride along in its bundle.

// A JSON object; preflight and the request schema judge its contents, not this parser.
const RequestJsonSchema = JsonOf(z.record(z.string(), z.unknown())).transform((value) => value as LabelRequestInput);

const LineItemsSchema = z.array(z.object({ id: z.string().min(1), quantity: z.number().int() }));
const FulfillmentOrderIdSchema = z.string().regex(/^gid:\/\/shopify\/FulfillmentOrder\/\d+$/);

/** "Save to product" beside the customs fields; only an explicit "true" writes to Shopify. */
export const SaveToProductSchema = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true");

export const OrderPageActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("validate-address"),
    fulfillmentOrderId: FulfillmentOrderIdSchema,
    address: JsonOf(
      z.object({
        street1: z.string(),
        street2: z.string().nullish(),
        city: z.string(),
        state: z.string(),
        zip: z.string(),
        country: z.string().nullish(),
      }),
    ),
  }),
  z.object({
    intent: z.literal("get-rates"),
    fulfillmentOrderId: FulfillmentOrderIdSchema,
    request: RequestJsonSchema,
  }),
  z.object({
    intent: z.literal("create-draft"),
    fulfillmentOrderId: FulfillmentOrderIdSchema,
    request: RequestJsonSchema,
    lineItems: JsonOf(LineItemsSchema),
    rate: JsonOf(RateSchema),
    saveToProduct: SaveToProductSchema,
  }),
  // "Buy" on a rate: the draft and its purchase in one step, at the server's quote for that rate.
  z.object({
    intent: z.literal("buy-rate"),
    fulfillmentOrderId: FulfillmentOrderIdSchema,
    request: RequestJsonSchema,
    lineItems: JsonOf(LineItemsSchema),
    rate: JsonOf(RateSchema),
    saveToProduct: SaveToProductSchema,
    notifyCustomer: z.enum(["true", "false"]).transform((v) => v === "true"),
  }),
  z.object({
    intent: z.literal("buy"),
    labelId: z.string().min(1),
    notifyCustomer: z.enum(["true", "false"]).transform((v) => v === "true"),
  }),
  z.object({
    intent: z.literal("retry-write-back"),
    labelId: z.string().min(1),
    notifyCustomer: z.enum(["true", "false"]).transform((v) => v === "true"),
  }),
  z.object({ intent: z.literal("discard"), labelId: z.string().min(1) }),
  z.object({ intent: z.literal("void"), labelId: z.string().min(1) }),
  z.object({ intent: z.literal("dismiss-attention"), labelId: z.string().min(1) }),
  // "Edit" on a draft, then a rate chosen again: the draft `labelId` is replaced by one for this
  // request (shipments/reopen-draft.server.ts).
  z.object({
    intent: z.literal("redraft"),
    labelId: z.string().min(1),
    fulfillmentOrderId: FulfillmentOrderIdSchema,
    request: RequestJsonSchema,
    lineItems: JsonOf(LineItemsSchema),
    rate: JsonOf(RateSchema),
    saveToProduct: SaveToProductSchema,
  }),
]);
export type OrderPageAction = z.infer<typeof OrderPageActionSchema>;
export type OrderPageIntent = OrderPageAction["intent"];
