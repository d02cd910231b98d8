import { demo } from "./demo";

// What happens at the shipping service outside the app, for browser tests: a label drafted by
// another integration and bought on the service's dashboard, a carrier's tracking scans, and the
// events the service then sent the app (the emulator's control endpoints, emulator/shipping/README.md).

/** The demo organization's sandbox key (emulator/shipping/config.json). */
const API_KEY = "sk_test_demo";

async function shippingCall<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${demo().shippingUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${API_KEY}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} at the shipping emulator: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

export type ServiceAddress = {
  name: string;
  company?: string;
  street1: string;
  street2?: string;
  city: string;
  state: string | null;
  zip: string;
  country: string;
  phone?: string;
};

export type ServiceRate = { rate_id: string; carrier: string; service: string; service_code: string; amount: string };

export type ServiceLabel = {
  id: string;
  status: string;
  tracking_numbers?: string[];
  platform?: string | null;
  platform_order_id?: string | null;
};

/**
 * Drafts a label for a Shopify order at the service, as another integration would (quote, then a
 * draft naming the order); the app is not asked. Returns the draft and the rate it was made from.
 */
export async function draftLabelAtService(input: {
  from: ServiceAddress;
  to: ServiceAddress;
  parcel: { weight: number; length: number; width: number; height: number; weight_unit?: "oz" | "lb" };
  shopifyOrderId: string;
  reference: string;
  /** Picks the rate; default the first. */
  pick?: (rates: ServiceRate[]) => ServiceRate | undefined;
}): Promise<{ label: ServiceLabel; rate: ServiceRate }> {
  const { rates } = await shippingCall<{ rates: ServiceRate[] }>("POST", "/v1/rates", {
    from_address: input.from,
    to_address: input.to,
    parcel: input.parcel,
  });
  const rate = (input.pick ?? ((all) => all[0]))(rates);
  if (!rate) throw new Error(`no rate to draft with among ${rates.map((r) => r.service).join(", ") || "none"}`);
  const label = await shippingCall<ServiceLabel>("POST", "/v1/labels", {
    rate_id: rate.rate_id,
    from_address: input.from,
    to_address: input.to,
    parcel: input.parcel,
    label_format: "pdf",
    reference: input.reference,
    platform: "shopify",
    platform_order_id: input.shopifyOrderId,
  });
  return { label, rate };
}

/** A label as the service has it (GET /v1/labels/{id}): its options and price as recorded there. */
export function readLabelAtService(
  labelId: string,
): Promise<ServiceLabel & { options?: Record<string, unknown>; rate?: { amount: string } | null }> {
  return shippingCall("GET", `/v1/labels/${labelId}`);
}

/** Buys a draft on the service's dashboard: charged, and `label.purchased` sent to the endpoints. */
export function buyOnServiceDashboard(labelId: string): Promise<ServiceLabel & { tracking_numbers: string[] }> {
  return shippingCall("POST", `/__emulator/labels/${labelId}/purchase`);
}

/** The carrier decides a pending void now (the emulator's control): refunded or refused. */
export function decideVoid(labelId: string, outcome: "refunded" | "rejected"): Promise<unknown> {
  return shippingCall("POST", `/__emulator/labels/${labelId}/void_decision`, { outcome });
}

/** A carrier scan: one `label.tracking_updated` per tracking number of the label. */
export function scanParcel(
  labelId: string,
  update: { status: string; occurred_at?: string; status_detail?: string; tracking_number?: string },
): Promise<{ events: { id: string }[] }> {
  return shippingCall("POST", `/__emulator/labels/${labelId}/tracking`, update);
}

export type ServiceDelivery = {
  id: string;
  event_id: string;
  event_type: string;
  url: string;
  status: "pending" | "delivered" | "given_up";
  attempts: { number: number; status: number | null; error: string | null }[];
};

/** Every event delivery the service made since the last reset, with its attempts. */
export async function serviceEventDeliveries(): Promise<ServiceDelivery[]> {
  const body = await shippingCall<{ deliveries: ServiceDelivery[] }>("GET", "/__emulator/deliveries");
  return body.deliveries;
}
