// Shared set-up for the label tests: both emulators in-process, the seeded order fetched through
// the real adapters. Not a test file itself.
import { isOutboundLabel } from "~/labels/label-repository.server";
import { createShippingClient, type FetchLike, type RequestSlots, type ShippingClient } from "~/shipping/client.server";
import { selectFulfillmentOrder } from "~/shopify/fulfillment-order-choice";
import type { OrderGid } from "~/shopify/ids";
import { getOrderForLabel, type ShopifyOrderForLabel } from "~/shopify/orders";
import { getShopAndLocations, type ShopifyShopAndLocations } from "~/shopify/shop";

import { createShippingEmulator, type ShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator, type ShopifyAdminEmulator } from "../../emulator/shopify/emulator";

export const SHIPPING_BASE_URL = "http://shipping.test";
export const DEMO_ORG = "org_demo";

export function createEmulators(): { shipping: ShippingEmulator; shopify: ShopifyAdminEmulator } {
  return { shipping: createShippingEmulator(), shopify: createShopifyAdminEmulator() };
}

export function createTestShippingClient(
  shipping: ShippingEmulator,
  apiKey = "sk_live_demo",
  fetch: FetchLike = shipping.fetch,
  slots?: RequestSlots,
): ShippingClient {
  return createShippingClient({
    baseUrl: SHIPPING_BASE_URL,
    apiKey,
    fetch,
    sleep: async () => {},
    timeoutMs: 5_000,
    ...(slots ? { slots } : {}),
  });
}

export async function loadSeededOrder(
  shopify: ShopifyAdminEmulator,
  name: string,
): Promise<{ order: ShopifyOrderForLabel; shop: ShopifyShopAndLocations }> {
  const record = shopify.findOrderByName(name);
  if (!record) throw new Error(`no seeded order ${name}`);
  const order = await getOrderForLabel(shopify.graphql, record.id as OrderGid);
  if (!order.ok) throw new Error(`getOrderForLabel ${name}: ${order.error.logMessage}`);
  const shop = await getShopAndLocations(shopify.graphql);
  if (!shop.ok) throw new Error(`getShopAndLocations: ${shop.error.logMessage}`);
  return { order: order.value.order, shop: shop.value };
}

import type { PrismaClient } from "@prisma/client";

import type { PurchaseShippingPort } from "~/labels/purchase.server";
import type { Rate } from "~/shipping/schemas";

import { DEFAULT_LABEL_SETTINGS, type LabelSettings } from "../../app/settings/settings";
import {
  checkForDraft,
  checkForQuote,
  checkShipment,
  type DraftCheckInput,
  type ReadyOutboundDraft,
  type ShipmentFacts,
} from "../../app/shipments/check-shipment";
import { draftShipment, quoteShipment } from "../../app/shipments/draft-shipment.server";

export const TEST_LABEL_SHOP = "demo-shop.myshopify.com";

type SeededOptions = {
  settings?: LabelSettings;
  pickRate?: (rates: Rate[]) => Rate | undefined;
  client?: ShippingClient;
};

/** Seeded order → prefill → quote, through the real adapters and both emulators; no draft yet. */
export async function quoteSeededOrder(
  emulators: { shipping: ShippingEmulator; shopify: ShopifyAdminEmulator },
  name: string,
  options: SeededOptions = {},
) {
  const { order, shop } = await loadSeededOrder(emulators.shopify, name);
  const fulfillmentOrder = selectFulfillmentOrder(order);
  if (!fulfillmentOrder) throw new Error(`${name} has no fulfillment order`);
  const facts: ShipmentFacts = {
    order,
    fulfillmentOrder,
    shopAndLocations: shop,
    settings: options.settings ?? DEFAULT_LABEL_SETTINGS,
  };
  const check = checkShipment(facts);
  const { prefilled } = check;
  if (!check.ready) {
    const blocking = check.problems.filter((p) => p.severity === "blocking");
    throw new Error(`${name} check blocked: ${blocking.map((p) => p.code).join(", ")}`);
  }
  const client = options.client ?? createTestShippingClient(emulators.shipping);
  const forQuote = checkForQuote(prefilled.request);
  if (!forQuote.ok) throw new Error(`${name} quote blocked: ${forQuote.error.logMessage}`);
  const quoted = await quoteShipment(client, forQuote.value);
  if (!quoted.ok) throw new Error(`${name} quote: ${quoted.error.logMessage}`);
  const rate = (options.pickRate ?? ((rates: Rate[]) => rates[0]))(quoted.value.rates);
  if (!rate) throw new Error(`${name}: no rate among ${quoted.value.rates.map((r) => r.service_code).join(", ")}`);
  const input = requireReady(checkForDraft(facts, { quote: rate, now: new Date() }), name);
  return { order, prefilled, rate, client, facts, input };
}

/** The checked draft request for the seeded shipment with some of the merchant's edits; throws when blocked. */
export function readyDraftFor(
  quoted: { facts: ShipmentFacts; rate: Rate },
  edits: Partial<Omit<DraftCheckInput, "now">> = {},
): ReadyOutboundDraft {
  return requireReady(checkForDraft(quoted.facts, { quote: quoted.rate, ...edits, now: new Date() }), "edited draft");
}

function requireReady(result: ReturnType<typeof checkForDraft>, name: string): ReadyOutboundDraft {
  if (!result.ok) throw new Error(`${name} draft check: ${result.error.logMessage}`);
  return result.value;
}

/** Seeded order → prefill → quote → draft, through the real adapters and both emulators. */
export async function draftSeededOrder(
  db: PrismaClient,
  emulators: { shipping: ShippingEmulator; shopify: ShopifyAdminEmulator },
  name: string,
  options: SeededOptions = {},
) {
  const quoted = await quoteSeededOrder(emulators, name, options);
  const draft = await draftShipment({ db, shop: TEST_LABEL_SHOP, shipping: quoted.client }, quoted.input);
  if (!draft.ok) throw new Error(`${name} draft: ${draft.error.logMessage}`);
  const { label } = draft.value;
  if (!isOutboundLabel(label)) throw new Error(`${name} draft: expected an outbound label`);
  return { ...quoted, draft: { ...draft.value, label } };
}

/** Buys a draft at the service directly, as its dashboard or another tool would. */
export async function buyAtTheService(
  shipping: ShippingEmulator,
  serviceLabelId: string | null,
  apiKey = "sk_live_demo",
) {
  if (!serviceLabelId) throw new Error("the label has no service label to buy");
  const response = await shipping.fetch(`${SHIPPING_BASE_URL}/v1/labels/${serviceLabelId}/purchase`, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: "{}",
  });
  if (response.status !== 200) throw new Error(`buying ${serviceLabelId} at the service: HTTP ${response.status}`);
}

/** The label as the shipping service has it (GET /v1/labels/{id}): what it recorded, not what the app believes. */
export async function readAtTheService(
  shipping: ShippingEmulator,
  serviceLabelId: string | null,
  apiKey = "sk_live_demo",
): Promise<Record<string, unknown>> {
  if (!serviceLabelId) throw new Error("the label has no service label to read");
  const response = await shipping.fetch(`${SHIPPING_BASE_URL}/v1/labels/${serviceLabelId}`, {
    headers: { Authorization: `Bearer ${apiKey}` },
  });
  if (response.status !== 200) throw new Error(`reading ${serviceLabelId} at the service: HTTP ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A fetch in front of the shipping emulator that counts the requests per "METHOD /path-suffix". */
export function countingFetch(shipping: ShippingEmulator) {
  const requests: string[] = [];
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    requests.push(`${init?.method ?? "GET"} ${url.pathname}`);
    return shipping.fetch(input, init);
  };
  const count = (method: string, suffix: string) =>
    requests.filter((r) => r.startsWith(`${method} `) && r.endsWith(suffix)).length;
  return { fetch, requests, count };
}

/** A promise the test opens when it wants: holds a call in flight. */
export function createGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** Polls until the condition holds (a few seconds at most). */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/**
 * A database client that fails or runs a hook where a test says, as a crash or a concurrent
 * request would: inside transactions too. Everything else goes to the real client.
 */
export function interceptDb(
  real: PrismaClient,
  hooks: { failAuditInserts?: boolean; beforeLabelUpdateMany?: () => Promise<void> },
): PrismaClient {
  let beforeUpdate = hooks.beforeLabelUpdateMany;
  const wrapDelegate = (delegate: object, override: Record<string, unknown>) =>
    new Proxy(delegate, {
      get(target, prop) {
        if (typeof prop === "string" && prop in override) return override[prop];
        const value: unknown = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const wrap = <C extends object>(client: C): C =>
    new Proxy(client, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop);
        if (prop === "$transaction" && typeof value === "function") {
          return (fn: (tx: object) => Promise<unknown>) =>
            (value as (f: (tx: object) => Promise<unknown>) => Promise<unknown>).call(target, (tx) => fn(wrap(tx)));
        }
        if (prop === "auditEntry" && hooks.failAuditInserts && typeof value === "object" && value !== null) {
          return wrapDelegate(value, {
            create: async () => {
              throw new Error("disk I/O error while writing the audit entry");
            },
          });
        }
        if (prop === "label" && beforeUpdate && typeof value === "object" && value !== null) {
          const delegate = value as { updateMany: (args: unknown) => Promise<unknown> };
          return wrapDelegate(delegate, {
            updateMany: async (args: unknown) => {
              const hook = beforeUpdate;
              beforeUpdate = undefined;
              if (hook) await hook();
              return delegate.updateMany(args);
            },
          });
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return wrap(real);
}

/** A shipping port whose process dies right after the service charged: nothing after the call runs. */
export function crashAfterCharge(client: ShippingClient): PurchaseShippingPort {
  return {
    getLabel: (id) => client.getLabel(id),
    purchaseLabel: async (id) => {
      await client.purchaseLabel(id);
      throw new Error("process crashed");
    },
  };
}

/**
 * Makes the service's next purchase answer a 503 and its label unreadable: the purchase ends
 * with an unknown outcome (nothing charged). Clear the faults with `setFaults({ failures: [] })`.
 */
export function loseTheNextPurchaseAnswer(shipping: ShippingEmulator): void {
  shipping.setFaults({
    failures: [
      { endpoint: "POST /v1/labels/{id}/purchase", kind: "unavailable", times: 1 },
      { endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 20 },
    ],
  });
}
