import { createHmac, randomUUID } from "node:crypto";

import { ADMIN_API_VERSION } from "./schema";

// Shopify's webhook delivery, for one app: every event on a subscribed topic is POSTed to the
// subscription's URI with the headers Shopify sends, signed with the app's API secret.
//
// - Asynchronous: send() returns at once; deliveries start on a later tick, so the mutation that
//   caused them answers first (as Shopify's do). whenIdle() resolves when every delivery has
//   succeeded or given up.
// - Retries: a non-2xx answer, a network error or no answer within `timeoutMs` is retried with
//   exponential backoff. Shopify retries 8 times over 4 hours; the defaults here (5 tries, 1 s,
//   2 s, 4 s, 8 s apart) suit a demo, and tests shrink them.
// - Ids: X-Shopify-Event-Id is the event's and never changes (retries, redeliveries, several
//   subscriptions to one topic), which is what Shopify tells apps to deduplicate on.
//   X-Shopify-Webhook-Id is new on every request, so an app that deduplicates on it is caught.
// - Retries and redeliveries send the original body (Shopify: "with the original payload from
//   the time they were triggered"), so they carry the same HMAC.
// - include_fields: a subscription that lists fields gets a body with only those (a period names a
//   nested field, applied to each element of a list: "line_items.id"), signed as sent. Shopify's
//   debouncing of identical trimmed bodies sent close together is not emulated.

export interface WebhookSubscription {
  topics: readonly string[];
  // A path on the app ("/webhooks/orders") or an absolute https URL.
  uri: string;
  // shopify.app.toml's include_fields: only these fields are sent; absent means the whole payload.
  includeFields?: readonly string[];
}

export type WebhookFetch = (input: string, init: RequestInit) => Promise<Response>;

export interface WebhookSenderOptions {
  // The app's base URL (SHOPIFY_APP_URL); subscription paths are resolved against it.
  appUrl: string;
  apiSecret: string;
  subscriptions: readonly WebhookSubscription[];
  // Defaults to globalThis.fetch; tests route deliveries in-process by passing their own.
  fetch?: WebhookFetch;
  // Tries per delivery, including the first (default 5), and the wait before the first retry,
  // doubled each time (default 1,000 ms).
  retry?: { attempts?: number; initialDelayMs?: number };
  // How long one request may take before it counts as failed (Shopify: 5 s).
  timeoutMs?: number;
  apiVersion?: string;
}

export interface WebhookEvent {
  eventId: string;
  topic: string;
  payload: unknown;
  triggeredAt: string;
}

export interface WebhookDelivery {
  // One per subscription per send or redelivery; several requests when retried.
  deliveryId: string;
  eventId: string;
  topic: string;
  url: string;
  // 0 for the first delivery of the event, 1 for its first redelivery…
  redelivery: number;
  attempts: number;
  webhookIds: string[];
  // The last HTTP status, or null when the last attempt got no answer.
  lastStatus: number | null;
  lastError: string | null;
  delivered: boolean;
  // Waiting for an answer or a retry; false once delivered or given up.
  pending: boolean;
}

export interface WebhookSender {
  /** The subscriptions (by topic) that will receive this topic; none means it is not sent. */
  urlsFor(topic: string): string[];
  /** Queues the event for each subscription to its topic; answers the deliveries (maybe none). */
  send(event: { topic: string; payload: unknown; eventId?: string; triggeredAt?: string }): WebhookDelivery[];
  /** Sends an earlier event again: same event id and body, new webhook ids. Undefined if unknown. */
  redeliver(eventId: string): WebhookDelivery[] | undefined;
  /** Every delivery since the last reset, oldest first (copies). */
  log(): WebhookDelivery[];
  /** Resolves once nothing is pending: every delivery succeeded or gave up. */
  whenIdle(): Promise<void>;
  /** Stops pending deliveries (they give up) and forgets the log and events. */
  reset(): void;
  /** Stops pending deliveries and timers for good; later sends are logged but not delivered. */
  close(): void;
}

export const DEFAULT_WEBHOOK_RETRY = { attempts: 5, initialDelayMs: 1_000 } as const;
const DEFAULT_TIMEOUT_MS = 5_000;

/** Base64 HMAC-SHA256 of the raw body with the app's secret: X-Shopify-Hmac-Sha256. */
export function signWebhookBody(body: string, apiSecret: string): string {
  return createHmac("sha256", apiSecret).update(body, "utf8").digest("base64");
}

/**
 * The payload cut down to `fields` (include_fields): each names a top-level key or, with periods,
 * a nested one; a list on the way applies the rest of the path to each of its elements. Fields the
 * payload does not have are left out.
 */
export function pickFields(payload: unknown, fields: readonly string[]): unknown {
  const pick = (value: unknown, paths: string[][]): unknown => {
    if (Array.isArray(value)) return value.map((item) => pick(item, paths));
    if (!value || typeof value !== "object") return value;
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    // In the payload's own key order, as Shopify serialises the resource.
    for (const key of Object.keys(record)) {
      const wanted = paths.filter((path) => path[0] === key);
      if (wanted.length === 0) continue;
      // A bare key takes the whole value, whatever else names parts of it.
      out[key] = wanted.some((path) => path.length === 1)
        ? record[key]
        : pick(
            record[key],
            wanted.map((path) => path.slice(1)),
          );
    }
    return out;
  };
  return pick(
    payload,
    fields.map((field) => field.split(".")),
  );
}

/** The exact bytes one subscription is sent (and signed) on every delivery of an event. */
function bodyFor(event: WebhookEvent, subscription: WebhookSubscription): string {
  return JSON.stringify(
    subscription.includeFields ? pickFields(event.payload, subscription.includeFields) : event.payload,
  );
}

function resolveUrl(appUrl: string, uri: string): string {
  if (/^https?:\/\//.test(uri)) return uri;
  return `${appUrl.replace(/\/+$/, "")}/${uri.replace(/^\/+/, "")}`;
}

export function createWebhookSender(options: WebhookSenderOptions & { shop: string }): WebhookSender {
  const doFetch: WebhookFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const attemptsAllowed = Math.max(1, options.retry?.attempts ?? DEFAULT_WEBHOOK_RETRY.attempts);
  const initialDelayMs = Math.max(0, options.retry?.initialDelayMs ?? DEFAULT_WEBHOOK_RETRY.initialDelayMs);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const apiVersion = options.apiVersion ?? ADMIN_API_VERSION;

  const events = new Map<string, WebhookEvent>();
  const deliveries: WebhookDelivery[] = [];
  const redeliveries = new Map<string, number>();
  const running = new Set<Promise<void>>();
  // Each generation of deliveries stops when reset() or close() starts a new one.
  let generation = 0;
  let closed = false;
  const stoppers = new Set<() => void>();

  // A wait that reset() and close() cut short; answers false when cut short.
  const wait = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const stop = () => {
        clearTimeout(timer);
        stoppers.delete(stop);
        resolve(false);
      };
      const timer = setTimeout(() => {
        stoppers.delete(stop);
        resolve(true);
      }, ms);
      stoppers.add(stop);
    });

  const attempt = async (event: WebhookEvent, body: string, delivery: WebhookDelivery) => {
    const webhookId = randomUUID();
    delivery.webhookIds.push(webhookId);
    delivery.attempts += 1;
    const controller = new AbortController();
    const stop = () => controller.abort();
    stoppers.add(stop);
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await doFetch(delivery.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "Shopify-Captain-Hook",
          "X-Shopify-Topic": event.topic,
          "X-Shopify-Hmac-Sha256": signWebhookBody(body, options.apiSecret),
          "X-Shopify-Shop-Domain": options.shop,
          "X-Shopify-API-Version": apiVersion,
          "X-Shopify-Webhook-Id": webhookId,
          "X-Shopify-Event-Id": event.eventId,
          "X-Shopify-Triggered-At": event.triggeredAt,
        },
        body,
        signal: controller.signal,
      });
      // Shopify reads nothing but the status; draining frees the connection.
      await response.arrayBuffer().catch(() => undefined);
      delivery.lastStatus = response.status;
      delivery.lastError = response.ok ? null : `HTTP ${response.status}`;
      delivery.delivered = response.ok;
    } catch (error) {
      delivery.lastStatus = null;
      delivery.lastError = controller.signal.aborted ? "no answer in time" : String(error);
    } finally {
      clearTimeout(timer);
      stoppers.delete(stop);
    }
  };

  const run = async (event: WebhookEvent, body: string, delivery: WebhookDelivery, startedIn: number) => {
    const live = () => generation === startedIn && !closed;
    // Start on a later tick: the caller's mutation (and its HTTP answer) comes first.
    if (!(await wait(0)) || !live()) return;
    for (let n = 0; n < attemptsAllowed; n++) {
      if (n > 0 && (!(await wait(initialDelayMs * 2 ** (n - 1))) || !live())) return;
      await attempt(event, body, delivery);
      if (delivery.delivered || !live()) return;
    }
  };

  const start = (event: WebhookEvent, redelivery: number): WebhookDelivery[] => {
    const started: WebhookDelivery[] = [];
    for (const subscription of options.subscriptions) {
      if (!subscription.topics.includes(event.topic)) continue;
      const delivery: WebhookDelivery = {
        deliveryId: randomUUID(),
        eventId: event.eventId,
        topic: event.topic,
        url: resolveUrl(options.appUrl, subscription.uri),
        redelivery,
        attempts: 0,
        webhookIds: [],
        lastStatus: null,
        lastError: null,
        delivered: false,
        pending: !closed,
      };
      deliveries.push(delivery);
      started.push(delivery);
      if (closed) {
        delivery.lastError = "the sender is closed";
        continue;
      }
      const task = run(event, bodyFor(event, subscription), delivery, generation).finally(() => {
        delivery.pending = false;
        running.delete(task);
      });
      running.add(task);
    }
    return started.map((d) => ({ ...d, webhookIds: [...d.webhookIds] }));
  };

  const stopAll = () => {
    generation += 1;
    for (const stop of [...stoppers]) stop();
  };

  return {
    urlsFor: (topic) =>
      options.subscriptions.filter((s) => s.topics.includes(topic)).map((s) => resolveUrl(options.appUrl, s.uri)),
    send(input) {
      const event: WebhookEvent = {
        eventId: input.eventId ?? randomUUID(),
        topic: input.topic,
        payload: input.payload,
        triggeredAt: input.triggeredAt ?? new Date().toISOString(),
      };
      events.set(event.eventId, event);
      return start(event, 0);
    },
    redeliver(eventId) {
      const event = events.get(eventId);
      if (!event) return undefined;
      const count = (redeliveries.get(eventId) ?? 0) + 1;
      redeliveries.set(eventId, count);
      return start(event, count);
    },
    log: () => deliveries.map((d) => ({ ...d, webhookIds: [...d.webhookIds] })),
    async whenIdle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    reset() {
      stopAll();
      events.clear();
      deliveries.length = 0;
      redeliveries.clear();
    },
    close() {
      closed = true;
      stopAll();
    },
  };
}
