import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";

import type { ExtensionErrorBody, ExtensionOrderState, ExtensionRatesResponse } from "~/extension-api/contract";
import { setShippingApiKey } from "~/settings/settings.server";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { createShopifyAdminEmulator } from "../../emulator/shopify/emulator";
import {
  mockTokenExchange,
  routeAdminToEmulator,
  routeShippingToEmulator,
  setupMockServer,
} from "../../test/helpers/msw";
import { routeArgs } from "../../test/helpers/route-args";
import { createSessionToken, type SessionTokenOptions } from "../../test/helpers/shopify-requests";
import { TEST_ENV, TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action as labelAction, loader as labelLoader } from "./api.extensions.orders.$orderId.label";
import { action as ratesAction } from "./api.extensions.orders.$orderId.rates";
import { loader as pdfLoader } from "./api.extensions.print.pdf";

// Shopify's print action loads its `src` as a URL, so the PDF route also takes the admin's session
// token as `?id_token=`. Real signed tokens, both emulators, a label bought through the extension API.

setupMockServer();

const OTHER_SHOP = "other-shop.myshopify.com";

type Handler = (args: ReturnType<typeof routeArgs>) => Promise<Response>;

function bearerRequest(path: string, body?: unknown): Request {
  const headers = new Headers({ Authorization: `Bearer ${createSessionToken()}` });
  if (body !== undefined) headers.set("Content-Type", "application/json");
  return new Request(new URL(path, TEST_ENV.SHOPIFY_APP_URL), {
    method: body === undefined ? "GET" : "POST",
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json<T>(handler: Handler, request: Request, params: Record<string, string>) {
  const response = await handler(routeArgs(request, params));
  return (await response.json()) as T & ExtensionErrorBody;
}

/** A store whose order #1001 has a bought PDF label; answers the order's legacy id. */
async function orderWithBoughtLabel(): Promise<string> {
  mockTokenExchange();
  const shopify = routeAdminToEmulator(createShopifyAdminEmulator({ shop: TEST_SHOP }));
  routeShippingToEmulator(createShippingEmulator());
  await setShippingApiKey(db, TEST_SHOP, "sk_live_demo");
  const orderId = shopify.findOrderByName("#1001")?.id.split("/").pop() ?? "";
  const path = `/api/extensions/orders/${orderId}/label`;
  const state = await json<ExtensionOrderState>(labelLoader, bearerRequest(path), { orderId });
  const fulfillmentOrderId = state.shipment?.fulfillmentOrderId ?? "";
  const rates = await json<ExtensionRatesResponse>(
    ratesAction,
    bearerRequest(`/api/extensions/orders/${orderId}/rates`, { fulfillmentOrderId }),
    { orderId },
  );
  const rate = rates.rates[0];
  if (!rate) throw new Error(`no rate: ${JSON.stringify(rates)}`);
  const request = bearerRequest(path, {
    fulfillmentOrderId,
    serviceCode: rate.serviceCode,
    expectedCents: rate.price.cents,
    currency: rate.price.currency,
  });
  const bought = await labelAction(routeArgs(request, { orderId }));
  if (bought.status !== 200) throw new Error(`not bought: ${bought.status} ${await bought.text()}`);
  return orderId;
}

/** The print preview's request: no Authorization header, the token (if any) in the query. */
function printRequest(orderId: string, token: string | null, headers: Record<string, string> = {}): Request {
  const url = new URL(`/api/extensions/print/pdf?orders=${orderId}`, TEST_ENV.SHOPIFY_APP_URL);
  if (token !== null) url.searchParams.set("id_token", token);
  return new Request(url, { headers });
}

const print = (request: Request) => pdfLoader(routeArgs(request));
const tokenFor = (options: SessionTokenOptions = {}) => createSessionToken(options);

describe("the print PDF with the session token as an id_token query parameter", () => {
  it("prints the order's bought label when Shopify loads the PDF's URL with its id_token", async () => {
    const orderId = await orderWithBoughtLabel();
    const pdf = await print(printRequest(orderId, tokenFor()));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Access-Control-Allow-Origin")).toBe("*");
    // The token is in the URL: the PDF tells no other site where it came from.
    expect(pdf.headers.get("Referrer-Policy")).toBe("no-referrer");
    const document = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    expect(document.getPageCount()).toBe(1);
  });

  it("refuses an expired, forged or unreadable id_token, or none, with 401 and no PDF", async () => {
    const orderId = await orderWithBoughtLabel();
    for (const [why, token] of [
      ["expired", tokenFor({ expiresIn: -600 })],
      ["signed by another app", tokenFor({ secret: "not-our-secret" })],
      ["for another app's key", tokenFor({ apiKey: "another-api-key" })],
      ["unreadable", "not-a-jwt"],
      ["empty", ""],
      ["missing", null],
    ] as const) {
      const answer = await print(printRequest(orderId, token));
      expect(answer.status, why).toBe(401);
      expect(answer.headers.get("Content-Type"), why).not.toBe("application/pdf");
      expect(answer.headers.get("Access-Control-Allow-Origin"), why).toBe("*");
    }
  });

  it("prints nothing of this shop's labels for another shop's id_token", async () => {
    const orderId = await orderWithBoughtLabel();
    mockTokenExchange(OTHER_SHOP);
    routeAdminToEmulator(createShopifyAdminEmulator({ shop: OTHER_SHOP }), OTHER_SHOP);
    const answer = await print(printRequest(orderId, tokenFor({ shop: OTHER_SHOP })));
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as ExtensionErrorBody).error.code).toBe("NOTHING_TO_PRINT");
  });

  it("reads a bearer header before the query, as every other extension call does", async () => {
    const orderId = await orderWithBoughtLabel();
    const forgedQuery = printRequest(orderId, tokenFor({ secret: "not-our-secret" }), {
      Authorization: `Bearer ${tokenFor()}`,
    });
    expect((await print(forgedQuery)).status).toBe(200);
    const forgedHeader = printRequest(orderId, tokenFor(), {
      Authorization: `Bearer ${tokenFor({ secret: "not-our-secret" })}`,
    });
    expect((await print(forgedHeader)).status).toBe(401);
  });
});
