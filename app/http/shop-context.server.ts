import type { PrismaClient } from "@prisma/client";

import db from "~/db.server";
import { createShippingClientForShop } from "~/settings/settings.server";
import type { ShippingClient } from "~/shipping/client.server";
import { authenticate } from "~/shopify.server";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import { observeAdminClient, pacerFor } from "~/shopify/paced-admin-client";
import { nameAccessActor } from "~/utils/access-context.server";

import { respondWithError } from "./error-response.server";

type AdminContext = Awaited<ReturnType<typeof authenticate.admin>>;

/** The redirect from `authenticate.admin`: keeps shop, host and embedded so the admin frame keeps its context. */
export type EmbeddedRedirect = AdminContext["redirect"];

/** Everything a route needs to act for the shop behind a request. */
export interface ShopContext {
  readonly shop: string;
  readonly session: AdminContext["session"];
  readonly db: PrismaClient;
  readonly admin: AdminGraphqlClient;
  /** The staff member behind the session token (`sub`), when the token names one. */
  readonly staffMemberId: string | null;
  readonly redirect: EmbeddedRedirect;
  /**
   * The shop's shipping client, built on first call. Throws a redirect to Settings when the shop
   * has no usable API key. Lazy, so screens that never call the shipping service (home, settings)
   * never bounce to Settings, and the settings page cannot redirect to itself.
   */
  requireShipping(): Promise<ShippingClient>;
}

/**
 * Authenticates an admin request (page load, React Router fetch, or an admin extension's fetch) and
 * returns the shop's context. The library's own answers (bounce page, 401 with retry header,
 * login redirect) are thrown Responses and pass through untouched.
 */
export async function requireShopContext(request: Request): Promise<ShopContext> {
  return shopContextFrom(await authenticate.admin(request));
}

/** The shop's context from what `authenticate.admin` answered. */
export function shopContextFrom({ admin, session, sessionToken, redirect }: AdminContext): ShopContext {
  const shop = session.shop;
  const staffMemberId = sessionToken.sub ? sessionToken.sub : null;
  // The request's reads of personal data are logged as this staff member's (ADR 28).
  nameAccessActor(staffMemberId ? `staff:${staffMemberId}` : `shop:${shop}`);
  let shipping: Promise<ShippingClient> | undefined;
  return {
    shop,
    session,
    db,
    // Never held by the worker's pacing; what Shopify reports teaches this process the shop's bucket.
    admin: observeAdminClient(admin.graphql, pacerFor(shop)),
    staffMemberId,
    redirect,
    requireShipping() {
      shipping ??= requireShippingClient(shop, redirect);
      return shipping;
    },
  };
}

async function requireShippingClient(shop: string, redirect: EmbeddedRedirect): Promise<ShippingClient> {
  const result = await createShippingClientForShop(db, shop);
  if (result.ok) return result.value;
  // A missing or unreadable key is fixed by entering it again in Settings (a redirect there).
  throw respondWithError(result.error, { redirect });
}
