import type { PrismaClient } from "@prisma/client";

import { getEnv } from "~/env.server";
import { createShippingClient } from "~/shipping/client.server";
import { reportError } from "~/utils/error-report.server";
import { err, ok, type Result } from "~/utils/result";

import {
  getSettingsView,
  parseShippingApiKey,
  setShippingApiKey,
  type SettingsError,
  settingsError,
} from "./settings.server";
import {
  connectEvents,
  type ConnectionReport,
  isKeyRefusal,
  probeShippingKey,
  type TestConnectionOptions,
} from "./test-connection.server";

// "Save and test key" on the Settings screen. A key is stored only once the shipping service has
// accepted it: the new key is tried on its own first, and the stored one is replaced only then.
//
// - Refused (401, 403, no organization): not stored. Storing it would replace a working key with
//   one that fails every label, and the merchant would learn of it at the next "Get rates".
// - Not checked (network, timeout, 5xx, throttling): not stored either. The answer says nothing
//   about the new key, and the stored one was working a moment ago; keeping the proven key and
//   asking the merchant to save again later costs a click, while storing an unproven key over it
//   could stop every label until someone notices. A shop with no key loses nothing by waiting.
// Either way the answer names the key still in use, so the screen tells one story.

export type SaveApiKeyOptions = TestConnectionOptions & { now?: () => Date };

/** The saved key, verified, with the events connection (re)made; or why nothing was stored. */
export async function saveVerifiedShippingApiKey(
  db: PrismaClient,
  shop: string,
  apiKey: string,
  options: SaveApiKeyOptions = {},
): Promise<Result<Extract<ConnectionReport, { status: "connected" }>, SettingsError>> {
  const parsed = parseShippingApiKey(apiKey);
  if (!parsed.ok) return parsed;
  const candidate = createShippingClient({
    baseUrl: options.baseUrl ?? getEnv().SHIPPING_API_BASE_URL,
    apiKey: parsed.value,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const probe = await probeShippingKey(candidate, options);
  if (!probe.ok) {
    const before = await getSettingsView(db, shop);
    const kept = before.apiKey.hint
      ? ` Your saved key ending in ${before.apiKey.hint.replace(/^•+/, "")} is still in use.`
      : "";
    if (isKeyRefusal(probe.error)) {
      const noOrganization = probe.error.code === "NO_ORGANIZATION";
      const why = noOrganization
        ? "This key is not attached to an organization in your shipping account"
        : "The shipping service refused this key";
      const next = noOrganization
        ? "Attach it to an organization in your shipping account, or enter another key."
        : "Copy the key again from your shipping account (API keys), then save it.";
      return err(
        settingsError(
          "API_KEY_REFUSED",
          `${why}, so it was not saved.${kept} ${next}`,
          `saveVerifiedShippingApiKey: new key refused (${probe.error.logMessage}); the stored key is unchanged`,
          [
            {
              path: "apiKey",
              message: noOrganization ? "This key cannot create labels: it has no organization." : `${why}.`,
            },
          ],
        ),
      );
    }
    // Ours or the service's problem, not the merchant's: logged under a reference they can quote.
    const { reference } = reportError(probe.error, { level: "warn" });
    return err(
      settingsError(
        "API_KEY_UNVERIFIED",
        `The shipping service could not be reached to check this key, so it was not saved.${kept} Try again in a few minutes. (Reference: ${reference})`,
        `saveVerifiedShippingApiKey: new key not checked (${probe.error.code}); the stored key is unchanged`,
      ),
    );
  }
  const stored = await setShippingApiKey(db, shop, parsed.value);
  if (!stored.ok) return stored;
  const view = await getSettingsView(db, shop);
  return ok({
    status: "connected",
    mode: view.mode,
    keyHint: view.apiKey.hint,
    requestId: probe.value.requestId,
    checkedAt: (options.now?.() ?? new Date()).toISOString(),
    events: await connectEvents(db, shop, options),
  });
}
