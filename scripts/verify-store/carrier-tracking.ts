import { z } from "zod";

import { adminGraphql, type StoreConnection, toGid } from "./admin";
import type { VerifyStoreOptions } from "./options";
import { type Verdict, verdict } from "./verdict";

// ADR 9 has the app add a fulfillment event for each tracking status the shipping service
// reports, each status once and only forward. Shopify tracks some carriers itself and may add
// events of its own to the same fulfillment; then the order page and the customer's status page
// would show every step twice. Two readings settle it:
//   - on a fulfillment the app posted events to, a status that appears twice came from someone
//     else (the app never sends a status twice);
//   - on a fulfillment the app posted nothing to (--no-app-events, or one this script created
//     with --allow-writes), any event at all is Shopify's own.

const CHECK = "carrier-tracking";

const FULFILLMENT_QUERY = `#graphql
  query VerifyStoreFulfillment($id: ID!) {
    fulfillment(id: $id) {
      id
      name
      status
      createdAt
      trackingInfo(first: 5) { company number }
      events(first: 100, sortKey: HAPPENED_AT) {
        nodes { id status happenedAt createdAt message }
      }
    }
  }
`;

const ORDER_QUERY = `#graphql
  query VerifyStoreOrder($id: ID!) {
    order(id: $id) {
      id
      name
      test
      cancelledAt
      fulfillmentOrders(first: 20) {
        nodes { id status supportedActions { action } }
      }
    }
  }
`;

const FULFILL_MUTATION = `#graphql
  mutation VerifyStoreFulfill($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment { id name createdAt }
      userErrors { field message }
    }
  }
`;

const FulfillmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
  trackingInfo: z.array(z.object({ company: z.string().nullable(), number: z.string().nullable() })),
  events: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        status: z.string(),
        happenedAt: z.string(),
        createdAt: z.string(),
        message: z.string().nullable(),
      }),
    ),
  }),
});
type Fulfillment = z.infer<typeof FulfillmentSchema>;

const OrderSchema = z.object({
  id: z.string(),
  name: z.string(),
  test: z.boolean(),
  cancelledAt: z.string().nullable(),
  fulfillmentOrders: z.object({
    nodes: z.array(
      z.object({ id: z.string(), status: z.string(), supportedActions: z.array(z.object({ action: z.string() })) }),
    ),
  }),
});

const FulfillSchema = z.object({
  fulfillment: z.object({ id: z.string(), name: z.string(), createdAt: z.string() }).nullable(),
  userErrors: z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() })),
});

const describeEvents = (f: Fulfillment) =>
  f.events.nodes.map(
    (e) => `${e.happenedAt} ${e.status}${e.message ? ` "${e.message}"` : ""} (created ${e.createdAt})`,
  );

const tracking = (f: Fulfillment) =>
  f.trackingInfo.map((t) => `${t.company ?? "(no carrier)"} ${t.number ?? "(no number)"}`).join(", ") || "none";

/** Judges one fulfillment's events (pure: the tests feed it the emulator's answer). */
export function judgeFulfillmentEvents(
  f: Fulfillment,
  context: { noAppEvents: boolean; settleHours: number; now: number; rerun: string },
): Verdict {
  const head = [`${f.name} (${f.id}), tracking: ${tracking(f)}`];
  if (!f.trackingInfo.some((t) => t.number)) {
    return verdict(CHECK, "NEEDS-HUMAN", `${f.name} has no tracking number, so Shopify has nothing to track.`, [
      ...head,
      "Pick a fulfillment with a real carrier's tracking number.",
    ]);
  }
  const events = f.events.nodes;
  if (context.noAppEvents) {
    if (events.length > 0) {
      return verdict(CHECK, "FAIL", `Shopify added ${events.length} event(s) of its own to ${f.name}.`, [
        ...head,
        ...describeEvents(f),
        "The app's events for this carrier would show next to these: in ADR 9, skip fulfillmentEventCreate",
        "for carriers Shopify tracks (or stop sending events), and record the carriers seen here.",
      ]);
    }
    const ageHours = (context.now - Date.parse(f.createdAt)) / 3_600_000;
    if (ageHours >= context.settleHours) {
      return verdict(CHECK, "PASS", `Shopify added no events to ${f.name} in ${Math.floor(ageHours)} h.`, [
        ...head,
        "Shopify does not track this carrier on its own here: the app's events are the only ones (ADR 9 holds).",
      ]);
    }
    return verdict(CHECK, "NEEDS-HUMAN", `No events on ${f.name} yet; it is ${Math.floor(ageHours)} h old.`, [
      ...head,
      `Run again after ${context.settleHours} h: ${context.rerun}`,
    ]);
  }
  const byStatus = new Map<string, number>();
  for (const e of events) byStatus.set(e.status, (byStatus.get(e.status) ?? 0) + 1);
  const repeated = [...byStatus].filter(([, n]) => n > 1).map(([s, n]) => `${s} ×${n}`);
  if (repeated.length > 0) {
    return verdict(CHECK, "FAIL", `${f.name} shows a status more than once: ${repeated.join(", ")}.`, [
      ...head,
      ...describeEvents(f),
      "The app sends each status once (ADR 9), so the others are Shopify's own tracking: the timeline",
      "and the customer's status page show each step twice. Skip events for carriers Shopify tracks.",
    ]);
  }
  if (events.length === 0) {
    return verdict(CHECK, "NEEDS-HUMAN", `${f.name} has no tracking events yet.`, [
      ...head,
      "Wait until the parcel has moved (or the app has posted its events) and run again.",
    ]);
  }
  return verdict(CHECK, "PASS", `${f.name}: ${events.length} event(s), no status twice.`, [
    ...head,
    ...describeEvents(f),
    "Compare with the label's parcels in the app: every event here should be one the app sent.",
  ]);
}

function needsAdminToken(): Verdict {
  return verdict(CHECK, "NEEDS-HUMAN", "No Admin API token was given.", [
    "Set SHOPIFY_ADMIN_TOKEN (see docs/verifying-on-a-store.md: the app's offline token for the store).",
  ]);
}

async function readFulfillment(
  connection: StoreConnection,
  token: string,
  id: string,
): Promise<{ ok: true; fulfillment: Fulfillment } | { ok: false; verdict: Verdict }> {
  const answer = await adminGraphql(connection, token, FULFILLMENT_QUERY, { id });
  if (!answer.ok)
    return { ok: false, verdict: verdict(CHECK, "NEEDS-HUMAN", `Reading ${id} failed.`, [answer.problem]) };
  if (answer.data.fulfillment === null) {
    return { ok: false, verdict: verdict(CHECK, "NEEDS-HUMAN", `The store has no fulfillment ${id}.`) };
  }
  const parsed = FulfillmentSchema.safeParse(answer.data.fulfillment);
  if (!parsed.success) {
    return {
      ok: false,
      verdict: verdict(CHECK, "NEEDS-HUMAN", `Unexpected answer for ${id}.`, [parsed.error.message]),
    };
  }
  return { ok: true, fulfillment: parsed.data };
}

/** Creates a fulfillment (no customer notification) for the open fulfillment order of a test order. */
async function createTestFulfillment(
  options: VerifyStoreOptions,
  connection: StoreConnection,
  token: string,
): Promise<{ ok: true; id: string } | { ok: false; verdict: Verdict }> {
  const { orderId, carrier, trackingNumber } = options.carrierTracking;
  const fail = (status: "NEEDS-HUMAN" | "FAIL", summary: string, details: string[] = []) => ({
    ok: false as const,
    verdict: verdict(CHECK, status, summary, details),
  });
  if (!orderId || !carrier || !trackingNumber) return fail("NEEDS-HUMAN", "No order to fulfil was given.");
  const id = toGid("Order", orderId);
  const read = await adminGraphql(connection, token, ORDER_QUERY, { id });
  if (!read.ok) return fail("NEEDS-HUMAN", `Reading ${id} failed.`, [read.problem]);
  const order = OrderSchema.safeParse(read.data.order);
  if (!order.success) return fail("NEEDS-HUMAN", `The store has no order ${id}.`);
  if (!order.data.test || order.data.cancelledAt) {
    return fail("NEEDS-HUMAN", `${order.data.name} is not an open test order; nothing was written.`, [
      "Place a test order (Settings → Payments → test mode, or the Bogus Gateway) and pass its id.",
    ]);
  }
  const fo = order.data.fulfillmentOrders.nodes.find((n) =>
    n.supportedActions.some((a) => a.action === "CREATE_FULFILLMENT"),
  );
  if (!fo) return fail("NEEDS-HUMAN", `${order.data.name} has no fulfillment order that can be fulfilled.`);
  if (!options.carrierTracking.allowWrites) {
    return fail(
      "NEEDS-HUMAN",
      `Would fulfil ${order.data.name} with ${carrier} ${trackingNumber}; nothing was written.`,
      ["Run again with --allow-writes to create that fulfillment (no customer notification)."],
    );
  }
  const created = await adminGraphql(connection, token, FULFILL_MUTATION, {
    fulfillment: {
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }],
      trackingInfo: { company: carrier, number: trackingNumber },
      notifyCustomer: false,
    },
  });
  if (!created.ok) return fail("NEEDS-HUMAN", `fulfillmentCreate failed for ${order.data.name}.`, [created.problem]);
  const payload = FulfillSchema.safeParse(created.data.fulfillmentCreate);
  if (!payload.success || !payload.data.fulfillment) {
    const errors = payload.success ? payload.data.userErrors.map((e) => e.message) : [payload.error.message];
    return fail("NEEDS-HUMAN", `Shopify refused to fulfil ${order.data.name}.`, errors);
  }
  return { ok: true, id: payload.data.fulfillment.id };
}

export async function checkCarrierTracking(
  options: VerifyStoreOptions,
  connection: StoreConnection,
  now: number,
  out: (line: string) => void,
): Promise<Verdict> {
  const { fulfillmentId, orderId, settleHours } = options.carrierTracking;
  let noAppEvents = options.carrierTracking.noAppEvents;
  if (!fulfillmentId && !orderId) {
    return verdict(CHECK, "NEEDS-HUMAN", "No fulfillment or test order was given.", [
      "Either --fulfillment <id> of a label the app bought with a real carrier number, after the parcel moved,",
      "or --order <test order id> --carrier <name> --tracking-number <a real parcel's number> --allow-writes.",
    ]);
  }
  if (!options.adminToken) return needsAdminToken();
  let id: string;
  if (fulfillmentId) {
    id = toGid("Fulfillment", fulfillmentId);
  } else {
    const created = await createTestFulfillment(options, connection, options.adminToken);
    if (!created.ok) return created.verdict;
    id = created.id;
    noAppEvents = true;
    out(`carrier-tracking: created fulfillment ${id} (the app posts no events to it).`);
  }
  const read = await readFulfillment(connection, options.adminToken, id);
  if (!read.ok) return read.verdict;
  const rerun = `npx tsx scripts/verify-store.ts --shop ${options.shop} --check carrier-tracking --fulfillment ${id} --no-app-events`;
  return judgeFulfillmentEvents(read.fulfillment, { noAppEvents, settleHours, now, rerun });
}
