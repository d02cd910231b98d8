import "@shopify/shopify-app-react-router/adapters/node";

import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-react-router/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";

import prisma from "./db.server";
import { getEnv } from "./env.server";
import { logShopifyLibraryLine } from "./logger.server";

const env = getEnv();

export const apiVersion = ApiVersion.October26;
// The library's per-request progress lines help while developing; tests and production
// (and its benchmarks) read outcomes, and keep warnings and errors only.
const logLevel = env.NODE_ENV === "development" ? LogSeverity.Info : LogSeverity.Warning;

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion,
  scopes: env.SCOPES,
  appUrl: env.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage: new PrismaSessionStorage(prisma),
  // Embedded: requests carry a session token that the library exchanges for an access token
  // (token exchange, the React Router package's only embedded strategy), so there is no OAuth
  // redirect dance inside the admin.
  distribution: AppDistribution.AppStore,
  // Its lines go through our logger (levels mapped, secrets scrubbed), not its own console output.
  logger: { level: logLevel, log: logShopifyLibraryLine },
  future: { expiringOfflineAccessTokens: true },
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
