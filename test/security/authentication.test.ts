// Authentication: every route that takes a session token, sent one that is expired, signed with
// the wrong secret, issued for another app (wrong audience), another app's own token, an
// unsigned one, or none; every Shopify webhook sent with a forged, foreign or missing HMAC, a
// tampered body, or replayed; the shipping service's events likewise. All refused: nothing is
// changed, no call leaves the app (no token exchange, no Admin API, no shipping service).
import { createHmac, randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { server, setupMockServer } from "../helpers/msw";
import {
  BAD_WEBHOOK_HMAC,
  createSessionToken,
  createWebhookRequest,
  signWebhookBody,
} from "../helpers/shopify-requests";
import { TEST_ENV } from "../setup/test-env";
import { createChecks, recordChecksOfThisFile } from "./support/checks";
import { buildSessionRequest, routeModule, SESSION_REQUESTS } from "./support/requests";
import { coverageGaps, NO_SESSION_TOKEN } from "./support/routes";
import {
  type Answer,
  asA,
  createWorld,
  deliverShippingEvent,
  expectUnchanged,
  invoke,
  ORG_A,
  type SeededA,
  seedShopA,
  SHOP_A,
  snapshotDb,
  STAFF_A,
} from "./support/world";

setupMockServer();
recordChecksOfThisFile();

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** A JWT with `alg: none` and no signature: a verifier that trusts the header would take it. */
function unsignedToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "none", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({
      iss: `https://${SHOP_A}/admin`,
      dest: `https://${SHOP_A}`,
      aud: TEST_ENV.SHOPIFY_API_KEY,
      sub: STAFF_A,
      exp: now + 60,
      nbf: now - 5,
      iat: now - 5,
      jti: randomUUID(),
      sid: randomUUID(),
    }),
  );
  return `${header}.${payload}.`;
}

/** Shop A's claims, each token broken one way. */
const TOKENS: Record<string, () => string | null> = {
  expired: () => createSessionToken({ shop: SHOP_A, userId: STAFF_A, expiresIn: -120 }),
  "wrongly signed": () => createSessionToken({ shop: SHOP_A, userId: STAFF_A, secret: "not-the-app-secret" }),
  "wrong audience": () => createSessionToken({ shop: SHOP_A, userId: STAFF_A, apiKey: "another-apps-client-id" }),
  "another app's": () =>
    createSessionToken({
      shop: SHOP_A,
      userId: STAFF_A,
      apiKey: "another-apps-client-id",
      secret: "another-apps-secret",
    }),
  "unsigned (alg none)": unsignedToken,
  missing: () => null,
};

/** Every request that leaves the app while `run` runs (token exchange, Admin API, shipping). */
async function outboundDuring(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = ({ request }: { request: Request }) => {
    seen.push(`${request.method} ${request.url}`);
  };
  server.events.on("request:start", listener);
  try {
    await run();
  } finally {
    server.events.removeListener("request:start", listener);
  }
  return seen;
}

/** The library's session-token page: App Bridge and nothing else, to fetch a fresh token and reload. */
const isBouncePage = (answer: Answer) =>
  answer.status === 200 &&
  /<script data-api-key="[^"]+" src="https:\/\/cdn\.shopify\.com\/shopifycloud\/app-bridge\.js"><\/script>/.test(
    answer.text,
  ) &&
  answer.text
    .replace(/<script[^>]*><\/script>/g, "")
    .replace(/<[^>]+>/g, "")
    .trim() === "";

/**
 * Refused: 401 (the library's, with its retry header, or ours), sent away to log in, or the
 * library's page that holds nothing but App Bridge (its answer under /auth/ to a token it cannot
 * use, and on any page to a request that names no shop or host: App Bridge asks the admin again).
 */
function expectRefused(answer: Answer, extension: boolean) {
  const location = answer.headers.get("Location") ?? "";
  const refused =
    answer.status === 401 ||
    (answer.status >= 300 && answer.status < 400 && location.startsWith("/auth/")) ||
    isBouncePage(answer);
  expect(refused, `answered ${answer.status} ${location} ${answer.text.slice(0, 200)}`).toBe(true);
  if (extension) expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("*");
}

async function seed() {
  const world = createWorld();
  const a = await seedShopA(world);
  return { world, a, checks: createChecks() };
}

describe("authentication", () => {
  it("covers every route handler, or says why it does not apply", async () => {
    const checks = createChecks();
    const implemented = [
      ...Object.keys(SESSION_REQUESTS),
      ...Object.keys(WEBHOOKS),
      "webhooks.shipping.$endpoint#action",
    ];
    await checks.run("auth", "every route handler has authentication checks", async () => {
      expect(await coverageGaps("auth", implemented)).toEqual({ missing: [], stale: [], both: [] });
      for (const key of Object.keys(SESSION_REQUESTS))
        expect(NO_SESSION_TOKEN.has(key.split("#")[0] ?? "")).toBe(false);
    });
    checks.assertAllPassed();
  });

  it("refuses expired, wrongly signed, wrong-audience, foreign, unsigned and missing session tokens on every route, changing nothing", async () => {
    const { a, checks } = await seed();
    for (const key of Object.keys(SESSION_REQUESTS)) {
      const extension = key.startsWith("api.extensions.");
      const before = await snapshotDb();
      for (const [variant, token] of Object.entries(TOKENS)) {
        const { route, handler, params, request } = await buildSessionRequest(key, a, asA({ token: token() }));
        const module = await routeModule(route);
        let answer: Answer | null = null;
        const outbound = await outboundDuring(async () => {
          answer = await invoke(module[handler], request, params);
        });
        await checks.run("auth", `${key}: ${variant} token refused`, () => {
          if (!answer) throw new Error("no answer");
          expectRefused(answer, extension);
        });
        await checks.run("auth", `${key}: ${variant} token makes no call to Shopify or the shipping service`, () => {
          expect(outbound).toEqual([]);
        });
      }
      // A page load carries its token in the URL: a broken one there is refused too.
      if (!extension && key.endsWith("#loader")) {
        const { route, params, request } = await buildSessionRequest(key, a, asA({ token: null }));
        const page = new URL(request.url);
        page.searchParams.set("embedded", "1");
        page.searchParams.set("shop", SHOP_A);
        page.searchParams.set("id_token", TOKENS["wrongly signed"]?.() ?? "");
        const module = await routeModule(route);
        let answer: Answer | null = null;
        const outbound = await outboundDuring(async () => {
          answer = await invoke(module.loader, new Request(page), params);
        });
        await checks.run("auth", `${key}: a page load with a forged id_token is refused`, () => {
          if (!answer) throw new Error("no answer");
          expectRefused(answer, false);
          expect(outbound).toEqual([]);
        });
      }
      const after = await snapshotDb();
      await checks.run("auth", `${key}: refused requests changed nothing`, () => expectUnchanged(before, after, key));
    }
    checks.assertAllPassed();
  }, 60_000);

  it("refuses Shopify webhooks with a forged, foreign or missing HMAC or a tampered body, and a replay changes nothing", async () => {
    const { a, world, checks } = await seed();
    for (const [key, delivery] of Object.entries(WEBHOOKS)) {
      const [route] = key.split("#") as [string];
      const { action } = await routeModule(route);
      const payload = delivery.payload(a, world.shopifyA.findOrderByName("#1001")?.id ?? "");
      /** The genuine delivery with its HMAC replaced (null: removed) or its body swapped after signing. */
      const send = (hmac: string | null | undefined, body?: string) => {
        const request = createWebhookRequest({
          topic: delivery.topic,
          path: `/${route.replace(/\./g, "/")}`,
          shop: SHOP_A,
          payload,
        });
        const headers = new Headers(request.headers);
        if (hmac === null) headers.delete("X-Shopify-Hmac-Sha256");
        else if (hmac !== undefined) headers.set("X-Shopify-Hmac-Sha256", hmac);
        return new Request(request.url, { method: "POST", headers, body: body ?? JSON.stringify(payload) });
      };
      const before = await snapshotDb();
      // The right MAC, not written as Shopify writes it (canonical base64): each refused.
      const right = createHmac("sha256", TEST_ENV.SHOPIFY_API_SECRET).update(JSON.stringify(payload), "utf8").digest();
      const attempts: [string, Request][] = [
        ["the right HMAC in base64url", send(right.toString("base64url"))],
        ["the right HMAC without its padding", send(right.toString("base64").replace(/=+$/, ""))],
        ["the right HMAC with junk after it", send(`${right.toString("base64")}junk`)],
        ["the right HMAC with junk before it", send(`!${right.toString("base64")}`)],
        ["the right HMAC as hex", send(right.toString("hex"))],
        ["a forged HMAC", send(BAD_WEBHOOK_HMAC)],
        ["another app's HMAC", send(signWebhookBody(JSON.stringify(payload), "another-apps-secret"))],
        ["no HMAC", send(null)],
        [
          "a body changed after signing",
          send(undefined, JSON.stringify({ ...(payload as Record<string, unknown>), tampered: true })),
        ],
      ];
      for (const [variant, request] of attempts) {
        const answer = await invoke(action, request);
        await checks.run("auth", `${key}: ${variant} is refused`, () => {
          expect([400, 401], answer.text).toContain(answer.status);
        });
      }
      await world.drainJobs();
      const after = await snapshotDb();
      await checks.run("auth", `${key}: refused deliveries changed nothing`, () => expectUnchanged(before, after, key));

      // The same delivery twice (Shopify retries; anyone who captured one can resend it as is).
      const genuine = createWebhookRequest({
        topic: delivery.topic,
        path: `/${route.replace(/\./g, "/")}`,
        shop: SHOP_A,
        payload,
      });
      const replay = genuine.clone();
      expect((await invoke(action, genuine)).status).toBe(200);
      // Shopify's newer lowercase `shopify-*` header names are accepted like `X-Shopify-*`.
      const newer = createWebhookRequest({
        topic: delivery.topic,
        path: `/${route.replace(/\./g, "/")}`,
        shop: SHOP_A,
        payload,
        spelling: "shopify",
      });
      await checks.run("auth", `${key}: a delivery with the newer shopify-* headers is accepted`, async () => {
        const answer = await invoke(action, newer);
        expect(answer.status, answer.text).toBe(200);
      });
      await world.drainJobs();
      const once = await snapshotDb();
      const again = await invoke(action, replay);
      await world.drainJobs();
      await checks.run("auth", `${key}: a replayed delivery is acknowledged and changes nothing`, async () => {
        expect(again.status).toBe(200);
        expectUnchanged(once, await snapshotDb(), `${key} replayed`);
      });
    }
    checks.assertAllPassed();
  }, 60_000);

  it("refuses shipping events with a forged, missing, foreign or stale signature, or for no endpoint; a replay changes nothing", async () => {
    const { a, world, checks } = await seed();
    const now = Math.floor(Date.now() / 1000);
    const event = {
      id: "evt_auth_1",
      type: "label.tracking_updated",
      created_at: new Date().toISOString(),
      organization: ORG_A,
      data: {
        label_id: a.serviceLabelIds[0],
        tracking_number: a.trackingNumbers[0],
        status: "delivered",
        occurred_at: new Date().toISOString(),
      },
    };
    const body = JSON.stringify(event);
    const sign = (secret: string, t: number, signed = body) =>
      `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${signed}`, "utf8").digest("hex")}`;
    const before = await snapshotDb();
    const attempts: [string, () => Promise<Answer>, number][] = [
      [
        "a forged signature",
        () => deliverShippingEvent(a.endpointKey, a.endpointSecret, event, { header: "t=1,v1=00" }),
        401,
      ],
      ["no signature", () => deliverShippingEvent(a.endpointKey, a.endpointSecret, event, { header: null }), 401],
      // The right signature, not written exactly as contract.md writes it: each refused.
      ...(
        [
          ["t with junk after it", `t=${now}=junk,v1=${sign(a.endpointSecret, now).split(",v1=")[1]}`],
          ["v1 with junk after it", `${sign(a.endpointSecret, now)}=junk`],
          ["a trailing comma", `${sign(a.endpointSecret, now)},`],
          ["spaces between its parts", sign(a.endpointSecret, now).replace(",", ", ")],
          ["its parts swapped", sign(a.endpointSecret, now).split(",").reverse().join(",")],
          ["an extra part", `${sign(a.endpointSecret, now)},v0=abc`],
          ["a second v1", `${sign(a.endpointSecret, now)},${sign("whsec_other", now).split(",")[1]}`],
        ] as const
      ).map(([variant, header]): [string, () => Promise<Answer>, number] => [
        `the right signature with ${variant}`,
        () => deliverShippingEvent(a.endpointKey, a.endpointSecret, event, { header }),
        401,
      ]),
      ["another secret's signature", () => deliverShippingEvent(a.endpointKey, "whsec_other", event), 401],
      [
        "a signature over another body",
        () =>
          deliverShippingEvent(a.endpointKey, a.endpointSecret, event, { header: sign(a.endpointSecret, now, "{}") }),
        401,
      ],
      // Captured and sent again after the service's five-minute window: a replay.
      [
        "a signature six minutes old",
        () => deliverShippingEvent(a.endpointKey, a.endpointSecret, event, { t: now - 360 }),
        401,
      ],
      ["an endpoint key nobody has", () => deliverShippingEvent("no-such-endpoint-key", a.endpointSecret, event), 404],
    ];
    for (const [variant, deliver, status] of attempts) {
      const answer = await deliver();
      await checks.run("auth", `webhooks.shipping.$endpoint#action: ${variant} is refused`, () => {
        expect(answer.status).toBe(status);
      });
    }
    await world.drainJobs();
    await checks.run("auth", "webhooks.shipping.$endpoint#action: refused events changed nothing", async () =>
      expectUnchanged(before, await snapshotDb(), "shipping events"),
    );
    expect((await deliverShippingEvent(a.endpointKey, a.endpointSecret, event, { t: now })).status).toBe(200);
    await world.drainJobs();
    const once = await snapshotDb();
    const again = await deliverShippingEvent(a.endpointKey, a.endpointSecret, event, { t: now });
    await world.drainJobs();
    await checks.run("auth", "webhooks.shipping.$endpoint#action: a replayed event changes nothing", async () => {
      expect(again.status).toBe(200);
      expectUnchanged(once, await snapshotDb(), "shipping event replayed");
    });
    checks.assertAllPassed();
  }, 60_000);
});

type WebhookDelivery = { topic: string; payload: (a: SeededA, sharedOrderGid: string) => unknown };

/** A genuine delivery per Shopify webhook route that would change something of shop A's. */
const WEBHOOKS: Record<string, WebhookDelivery> = {
  "webhooks.orders#action": {
    topic: "orders/cancelled",
    payload: (a) => ({
      id: Number(a.ownOrderId),
      admin_graphql_api_id: a.ownOrderGid,
      cancelled_at: new Date().toISOString(),
    }),
  },
  "webhooks.fulfillment_orders#action": {
    topic: "fulfillment_orders/cancelled",
    payload: (a) => ({ fulfillment_order: { id: a.ownFulfillmentOrderGid, status: "cancelled" } }),
  },
  "webhooks.returns#action": {
    topic: "returns/request",
    payload: (a) => ({
      id: 1,
      admin_graphql_api_id: "gid://shopify/Return/1",
      status: "requested",
      order: { id: Number(a.ownOrderId), admin_graphql_api_id: a.ownOrderGid },
      return_line_items: [],
    }),
  },
  "webhooks.compliance#action": {
    topic: "customers/redact",
    payload: (a) => ({
      shop_domain: SHOP_A,
      customer: { id: 1, email: "a@example.com", phone: null },
      orders_to_redact: [Number(a.ownOrderId), Number(a.sharedOrderId)],
    }),
  },
  "webhooks.app.scopes_update#action": {
    topic: "app/scopes_update",
    payload: () => ({ id: 1, previous: TEST_ENV.SCOPES.split(","), current: ["read_orders"] }),
  },
  "webhooks.app.uninstalled#action": {
    topic: "app/uninstalled",
    payload: () => ({ id: 1, domain: SHOP_A }),
  },
};
