import type { PrismaClient } from "@prisma/client";
import { z } from "zod";

import { eraseShopData, recordCustomerDataRequest, redactCustomerData } from "~/privacy/privacy.server";

import { err, ok, type Result } from "../utils/result";
import { type DeliveryOutcome, processDeliveryOnce, type WebhookDelivery } from "./webhook-delivery.server";

// The three mandatory compliance topics, all delivered to /webhooks/compliance. Each delivery is
// recorded and its work done in one transaction (processDeliveryOnce): a redelivery is
// acknowledged and does nothing; a failure rolls both back and Shopify's retry does the work.

const OrderIdsSchema = z.array(z.union([z.number(), z.string()]));
const CustomerSchema = z
  .object({
    id: z.union([z.number(), z.string()]).nullish(),
    email: z.string().nullish(),
    phone: z.string().nullish(),
  })
  .loose();

const DataRequestPayloadSchema = z.object({ customer: CustomerSchema, orders_requested: OrderIdsSchema.default([]) });
const CustomerRedactPayloadSchema = z.object({
  customer: CustomerSchema,
  orders_to_redact: OrderIdsSchema.default([]),
});
const ShopRedactPayloadSchema = z.object({ shop_domain: z.string() });

export const COMPLIANCE_TOPICS = ["CUSTOMERS_DATA_REQUEST", "CUSTOMERS_REDACT", "SHOP_REDACT"] as const;

export type ComplianceError =
  { code: "UNKNOWN_TOPIC"; logMessage: string } | { code: "INVALID_PAYLOAD"; logMessage: string };

export type ComplianceOutcome =
  | { topic: "CUSTOMERS_DATA_REQUEST"; dataRequestId: string }
  | { topic: "CUSTOMERS_REDACT"; labels: number; auditEntries: number; addressValidations: number }
  | { topic: "SHOP_REDACT"; deleted: Record<string, number> };

function invalid(delivery: WebhookDelivery, error: z.ZodError): Result<never, ComplianceError> {
  return err({
    code: "INVALID_PAYLOAD",
    logMessage: `${delivery.topic} payload for ${delivery.shop}: ${error.message}`,
  });
}

/**
 * One compliance delivery. A malformed payload or an unknown topic is recorded as delivered too
 * (it will not get better on redelivery) and returned as an error for the route to log.
 */
export async function handleComplianceWebhook(
  db: PrismaClient,
  delivery: WebhookDelivery,
  payload: unknown,
): Promise<DeliveryOutcome<Result<ComplianceOutcome, ComplianceError>>> {
  return processDeliveryOnce(db, delivery, async (tx): Promise<Result<ComplianceOutcome, ComplianceError>> => {
    switch (delivery.topic) {
      case "CUSTOMERS_DATA_REQUEST": {
        const parsed = DataRequestPayloadSchema.safeParse(payload);
        if (!parsed.success) return invalid(delivery, parsed.error);
        const { id } = await recordCustomerDataRequest(tx, delivery.shop, {
          orderIds: parsed.data.orders_requested,
          customer: parsed.data.customer,
        });
        return ok({ topic: "CUSTOMERS_DATA_REQUEST", dataRequestId: id });
      }
      case "CUSTOMERS_REDACT": {
        const parsed = CustomerRedactPayloadSchema.safeParse(payload);
        if (!parsed.success) return invalid(delivery, parsed.error);
        const report = await redactCustomerData(tx, delivery.shop, {
          orderIds: parsed.data.orders_to_redact,
          customer: parsed.data.customer,
        });
        return ok({ topic: "CUSTOMERS_REDACT", ...report });
      }
      case "SHOP_REDACT": {
        const parsed = ShopRedactPayloadSchema.safeParse(payload);
        if (!parsed.success) return invalid(delivery, parsed.error);
        // The shop is the authenticated sender's (X-Shopify-Shop-Domain), never the body's.
        return ok({ topic: "SHOP_REDACT", deleted: await eraseShopData(tx, delivery.shop) });
      }
      default:
        return err({ code: "UNKNOWN_TOPIC", logMessage: `compliance webhook: unexpected topic ${delivery.topic}` });
    }
  });
}
