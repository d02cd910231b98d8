import { describe, expect, it, vi } from "vitest";

import { sealSecret } from "~/settings/secret-box.server";
import { signShippingEvent } from "~/shipping/event-signature";

import { countJobs, listJobs } from "../../test/helpers/jobs";
import { routeArgs } from "../../test/helpers/route-args";
import { TEST_ENV, TEST_SHOP } from "../../test/setup/test-env";
import db from "../db.server";
import { action } from "./webhooks.shipping.$endpoint";

const SECRET = "whsec_route_test";
const KEY = "k3y-for-test-shop";

async function connect(shop = TEST_SHOP, endpointKey = KEY, secret = SECRET) {
  const sealed = sealSecret(secret, TEST_ENV.APP_ENCRYPTION_KEY);
  if (!sealed.ok) throw new Error(sealed.error.logMessage);
  await db.shippingEventEndpoint.create({
    data: {
      shop,
      endpointKey,
      serviceEndpointId: `we_${endpointKey}`,
      url: `${TEST_ENV.SHOPIFY_APP_URL}/webhooks/shipping/${endpointKey}`,
      secretCiphertext: sealed.value.ciphertext,
      secretIv: sealed.value.iv,
      secretAuthTag: sealed.value.authTag,
      secretVersion: sealed.value.keyVersion,
    },
  });
}

const event = (id = "evt_1") =>
  JSON.stringify({
    id,
    type: "label.tracking_updated",
    created_at: "2026-11-22T10:00:00Z",
    organization: "org_demo",
    data: { label_id: "lbl_1", tracking_number: "1Z1", status: "in_transit", occurred_at: "2026-11-22T09:00:00Z" },
  });

function deliver(
  body: string,
  options: { secret?: string; t?: number; header?: string | null; endpointKey?: string; signedBody?: string } = {},
) {
  const t = options.t ?? Math.floor(Date.now() / 1000);
  const signature =
    options.header === undefined
      ? `t=${t},v1=${signShippingEvent(options.secret ?? SECRET, options.signedBody ?? body, t)}`
      : options.header;
  const headers = new Headers({ "Content-Type": "application/json", "Shipping-Event-Id": "evt" });
  if (signature !== null) headers.set("Shipping-Signature", signature);
  const endpointKey = options.endpointKey ?? KEY;
  const request = new Request(`${TEST_ENV.SHOPIFY_APP_URL}/webhooks/shipping/${endpointKey}`, {
    method: "POST",
    headers,
    body,
  });
  return action(routeArgs(request, { endpoint: endpointKey }));
}

const nothingStored = async () => {
  expect(await db.shippingEvent.count()).toBe(0);
  expect(await countJobs(db)).toBe(0);
};

describe("shipping service events", () => {
  it("stores a signed event once and enqueues its job; a repeat is acknowledged and does nothing", async () => {
    await connect();
    expect((await deliver(event())).status).toBe(200);
    expect((await deliver(event())).status).toBe(200);
    const stored = await db.shippingEvent.findMany();
    expect(stored).toMatchObject([
      { shop: TEST_SHOP, eventId: "evt_1", type: "label.tracking_updated", serviceLabelId: "lbl_1" },
    ]);
    const jobs = await listJobs(db, { name: "shipping-event" });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.shop).toBe(TEST_SHOP);
  });

  it.each([
    ["another secret", { secret: "whsec_other" }],
    ["a tampered body", { signedBody: event().replace("in_transit", "delivered") }],
    ["a timestamp six minutes old", { t: Math.floor(Date.now() / 1000) - 360 }],
    ["no signature header", { header: null }],
    ["a malformed header", { header: "sha256=abc" }],
  ])("answers 401 to %s and stores nothing", async (_what, options) => {
    await connect();
    expect((await deliver(event(), options)).status).toBe(401);
    await nothingStored();
  });

  it("answers 404 for an endpoint key no shop has", async () => {
    await connect();
    expect((await deliver(event(), { endpointKey: "unknown" })).status).toBe(404);
    await nothingStored();
  });

  it("routes each shop's events by its own endpoint and secret, even within one organization", async () => {
    await connect(TEST_SHOP, KEY, SECRET);
    await connect("second-shop.myshopify.com", "second-key", "whsec_second");
    expect((await deliver(event("evt_a"), { endpointKey: "second-key", secret: "whsec_second" })).status).toBe(200);
    // The first shop's secret does not open the second shop's endpoint.
    expect((await deliver(event("evt_b"), { endpointKey: "second-key" })).status).toBe(401);
    expect(await db.shippingEvent.findMany({ select: { shop: true, eventId: true } })).toEqual([
      { shop: "second-shop.myshopify.com", eventId: "evt_a" },
    ]);
  });

  it("acknowledges a signed body that is not an event, logging it", async () => {
    await connect();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect((await deliver("not json")).status).toBe(200);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/not JSON/));
    await nothingStored();
  });
});
