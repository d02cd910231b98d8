import { randomBytes } from "node:crypto";

import type { PrismaClient } from "@prisma/client";

import { getEnv } from "~/env.server";
import type { ShippingClient } from "~/shipping/client.server";
import type { ShippingError } from "~/shipping/errors";
import { SUBSCRIBED_EVENT_TYPES } from "~/shipping/schemas";
import { err, ok, type Result } from "~/utils/result";

import { openSecret, sealSecret } from "./secret-box.server";
import { type SettingsError, settingsError } from "./settings.server";

// The shop's subscription to the shipping service's events (contract.md, "Events"). Registered
// with the shop's own API key when it is saved or tested; events then arrive at
// /webhooks/shipping/<endpointKey>. The key is opaque and random: it names the shop without
// revealing it, and two shops sharing one organization each get their own endpoint (and secret),
// so an event reaches the shop whose endpoint it came to. The secret is sealed like the API key.

export type EndpointPort = Pick<
  ShippingClient,
  "registerWebhookEndpoint" | "listWebhookEndpoints" | "deleteWebhookEndpoint"
>;

export type EventsConnection = { connected: boolean; url: string | null; since: string | null };

type Options = { appUrl?: string; encryptionKey?: string };

const newEndpointKey = () => randomBytes(18).toString("base64url");
const urlFor = (appUrl: string, endpointKey: string) => `${appUrl.replace(/\/$/, "")}/webhooks/shipping/${endpointKey}`;

export async function getEventsConnection(db: PrismaClient, shop: string): Promise<EventsConnection> {
  const row = await db.shippingEventEndpoint.findUnique({ where: { shop } });
  return row
    ? { connected: true, url: row.url, since: row.updatedAt.toISOString() }
    : { connected: false, url: null, since: null };
}

/**
 * Registers (or re-registers) the shop's endpoint: a fresh registration with the key in use, then
 * the previous one and any other registration of our URL removed, so the service never signs with
 * a secret we no longer hold. The old row stays until the new one is stored.
 */
export async function connectShippingEvents(
  deps: { db: PrismaClient; shop: string; shipping: EndpointPort },
  options: Options = {},
): Promise<Result<EventsConnection, ShippingError | SettingsError>> {
  const { db, shop, shipping } = deps;
  const existing = await db.shippingEventEndpoint.findUnique({ where: { shop } });
  const endpointKey = existing?.endpointKey ?? newEndpointKey();
  const url = urlFor(options.appUrl ?? getEnv().SHOPIFY_APP_URL, endpointKey);

  const registered = await shipping.registerWebhookEndpoint({ url, events: [...SUBSCRIBED_EVENT_TYPES] });
  if (!registered.ok) return registered;
  const sealed = sealSecret(registered.value.secret, options.encryptionKey ?? getEnv().APP_ENCRYPTION_KEY);
  if (!sealed.ok) {
    return err(
      settingsError(
        "SECRET_STORAGE_FAILED",
        "The app cannot store the events secret right now. Try again later.",
        `connectShippingEvents: ${sealed.error.logMessage}`,
      ),
    );
  }
  const data = {
    endpointKey,
    serviceEndpointId: registered.value.id,
    url,
    secretCiphertext: sealed.value.ciphertext,
    secretIv: sealed.value.iv,
    secretAuthTag: sealed.value.authTag,
    secretVersion: sealed.value.keyVersion,
  };
  const row = await db.shippingEventEndpoint.upsert({ where: { shop }, create: { shop, ...data }, update: data });

  // Stale registrations of our URL (an earlier one, one whose answer was lost) would keep
  // delivering with secrets we dropped. Best effort: a failure here leaves extra deliveries
  // that fail their signature, never a missing one.
  const listed = await shipping.listWebhookEndpoints();
  const stale = new Set(listed.ok ? listed.value.filter((e) => e.url === url).map((e) => e.id) : []);
  if (existing) stale.add(existing.serviceEndpointId);
  stale.delete(registered.value.id);
  for (const id of stale) await shipping.deleteWebhookEndpoint(id);

  return ok({ connected: true, url: row.url, since: row.updatedAt.toISOString() });
}

/** The shop an event endpoint belongs to, and its signing secret; null for an unknown key. */
export async function findEventEndpoint(
  db: PrismaClient,
  endpointKey: string,
  options: { encryptionKey?: string } = {},
): Promise<{ shop: string; secret: string } | null> {
  const row = await db.shippingEventEndpoint.findUnique({ where: { endpointKey } });
  if (!row) return null;
  const secret = openSecret(
    {
      ciphertext: row.secretCiphertext,
      iv: row.secretIv,
      authTag: row.secretAuthTag,
      keyVersion: row.secretVersion,
    },
    options.encryptionKey ?? getEnv().APP_ENCRYPTION_KEY,
  );
  return secret.ok ? { shop: row.shop, secret: secret.value } : null;
}
