import { z } from "zod";

import type {
  FulfillmentOrderLineItemForLabelFragment,
  FulfillmentOrderLineItemsForLabelQuery,
  LineItemForLabelFragment,
  LocalizedFieldForLabelFragment,
  MailingAddressForLabelFragment,
  OrderForLabelQuery,
  OrderFulfillmentOrdersForLabelQuery,
  OrderLineItemsForLabelQuery,
} from "~/types/admin.generated";

import { schemaFor } from "./document-schema";
import type { FulfillmentOrderGid, FulfillmentOrderLineItemGid, LineItemGid, LocationGid, OrderGid } from "./ids";
import { GidSchema, ns, RawWeightSchema, streetAddressFields } from "./response-schemas";

// The zod boundary for the order documents in orders.graphql.ts. Each schema is checked against
// the type codegen generated for its document or fragment (schemaFor), so it reads exactly the
// fields the document selects; zod still checks every response at run time, brands the GIDs and
// turns missing nullable fields into null. Enums Shopify may extend (statuses, units, method
// types) are read as strings and checked with readEnum while mapping, so an unknown value is a
// problem on that field, not a failed order.

type FulfillmentOrderNode = NonNullable<
  OrderFulfillmentOrdersForLabelQuery["order"]
>["fulfillmentOrders"]["nodes"][number];

const MoneySchema = z.object({ amount: z.string(), currencyCode: z.string() });
export const MoneyBagSchema = z.object({ shopMoney: MoneySchema, presentmentMoney: MoneySchema });
export type MoneyBagData = z.infer<typeof MoneyBagSchema>;

// UnsignedInt64 arrives as a string; a number is tolerated.
export const UInt64Schema = z.union([z.string(), z.number()]).transform((v) => String(v));

export const MailingAddressSchema = schemaFor<MailingAddressForLabelFragment>()(
  z.object({
    ...streetAddressFields,
    name: ns,
    firstName: ns,
    lastName: ns,
    company: ns,
    provinceCode: ns,
    countryCodeV2: ns,
  }),
);
export type MailingAddressData = z.infer<typeof MailingAddressSchema>;

export const LocalizedFieldSchema = schemaFor<LocalizedFieldForLabelFragment>()(
  z.object({
    key: z.string(),
    purpose: z.string(),
    countryCode: z.string(),
    title: z.string(),
    value: z.string(),
  }),
);
export type LocalizedFieldData = z.infer<typeof LocalizedFieldSchema>;

export const LineItemSchema = schemaFor<LineItemForLabelFragment>()(
  z.object({
    id: GidSchema<LineItemGid>("LineItem"),
    title: z.string(),
    name: z.string(),
    variantTitle: ns,
    sku: ns,
    vendor: ns,
    quantity: z.number().int(),
    currentQuantity: z.number().int(),
    unfulfilledQuantity: z.number().int(),
    requiresShipping: z.boolean(),
    weight: RawWeightSchema.nullish(),
    originalUnitPriceSet: MoneyBagSchema,
    discountedUnitPriceAfterAllDiscountsSet: MoneyBagSchema,
    product: z.object({ id: z.string(), productType: z.string(), tags: z.array(z.string()) }).nullish(),
    variant: z
      .object({
        id: z.string(),
        sku: ns,
        inventoryItem: z.object({
          id: z.string(),
          harmonizedSystemCode: ns,
          countryCodeOfOrigin: ns,
          provinceCodeOfOrigin: ns,
          measurement: z.object({ weight: RawWeightSchema.nullish() }),
        }),
      })
      .nullish(),
  }),
);
export type LineItemData = z.infer<typeof LineItemSchema>;

const PageInfoSchema = z.object({
  hasNextPage: z.boolean(),
  endCursor: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});
const LineItemConnectionSchema = z.object({ pageInfo: PageInfoSchema, nodes: z.array(LineItemSchema) });
export type LineItemConnectionData = z.infer<typeof LineItemConnectionSchema>;

const FulfillmentOrderLineItemSchema = schemaFor<FulfillmentOrderLineItemForLabelFragment>()(
  z.object({
    id: GidSchema<FulfillmentOrderLineItemGid>("FulfillmentOrderLineItem"),
    totalQuantity: z.number().int(),
    remainingQuantity: z.number().int(),
    sku: ns,
    productTitle: z.string(),
    variantTitle: ns,
    requiresShipping: z.boolean(),
    weight: RawWeightSchema.nullish(),
    lineItem: z.object({ id: GidSchema<LineItemGid>("LineItem") }),
  }),
);
export type FulfillmentOrderLineItemData = z.infer<typeof FulfillmentOrderLineItemSchema>;
const FulfillmentOrderLineItemConnectionSchema = z.object({
  pageInfo: PageInfoSchema,
  nodes: z.array(FulfillmentOrderLineItemSchema),
});

const FulfillmentOrderSchema = schemaFor<FulfillmentOrderNode>()(
  z.object({
    id: GidSchema<FulfillmentOrderGid>("FulfillmentOrder"),
    status: z.string(),
    requestStatus: z.string(),
    supportedActions: z.array(z.object({ action: z.string() })),
    deliveryMethod: z.object({ methodType: z.string(), serviceCode: ns, presentedName: ns }).nullish(),
    internationalDuties: z.object({ incoterm: z.string() }).nullish(),
    assignedLocation: z.object({
      ...streetAddressFields,
      name: z.string(),
      countryCode: z.string(),
      location: z.object({ id: GidSchema<LocationGid>("Location") }).nullish(),
    }),
    destination: z
      .object({
        ...streetAddressFields,
        firstName: ns,
        lastName: ns,
        company: ns,
        countryCode: ns,
        email: ns,
      })
      .nullish(),
    lineItems: FulfillmentOrderLineItemConnectionSchema,
  }),
);
export type FulfillmentOrderData = z.infer<typeof FulfillmentOrderSchema>;

export const OrderForLabelDataSchema = schemaFor<OrderForLabelQuery>()(
  z.object({
    order: z
      .object({
        id: GidSchema<OrderGid>("Order"),
        legacyResourceId: UInt64Schema,
        name: z.string(),
        email: ns,
        phone: ns,
        currencyCode: z.string(),
        presentmentCurrencyCode: z.string(),
        displayFulfillmentStatus: z.string(),
        displayFinancialStatus: ns,
        totalWeight: UInt64Schema.nullish(),
        totalPriceSet: MoneyBagSchema,
        shippingAddress: MailingAddressSchema.nullish(),
        shippingLine: z.object({ title: z.string(), code: ns }).nullish(),
        currentShippingPriceSet: z.object({ shopMoney: MoneySchema }).nullish(),
        localizedFields: z.object({
          pageInfo: z.object({ hasNextPage: z.boolean() }),
          nodes: z.array(LocalizedFieldSchema),
        }),
        lineItems: LineItemConnectionSchema,
      })
      .nullable(),
  }),
);
export type OrderHeaderData = NonNullable<z.infer<typeof OrderForLabelDataSchema>["order"]>;

export const OrderLineItemsDataSchema = schemaFor<OrderLineItemsForLabelQuery>()(
  z.object({
    order: z.object({ id: z.string(), lineItems: LineItemConnectionSchema }).nullable(),
  }),
);

export const OrderFulfillmentOrdersDataSchema = schemaFor<OrderFulfillmentOrdersForLabelQuery>()(
  z.object({
    order: z
      .object({
        id: z.string(),
        fulfillmentOrders: z.object({ pageInfo: PageInfoSchema, nodes: z.array(FulfillmentOrderSchema) }),
      })
      .nullable(),
  }),
);

export const FulfillmentOrderLineItemsDataSchema = schemaFor<FulfillmentOrderLineItemsForLabelQuery>()(
  z.object({
    fulfillmentOrder: z.object({ id: z.string(), lineItems: FulfillmentOrderLineItemConnectionSchema }).nullable(),
  }),
);
