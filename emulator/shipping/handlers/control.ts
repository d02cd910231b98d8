// The /__emulator control endpoints other than tracking: the dashboard's purchase, deliveries
// (list, redeliver, flush), reset, faults, the clock, process stats and an organization's figures.

import { formatCents } from "../config";
import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import { DELIVERY_FAULT_ENDPOINT, FAULT_ENDPOINTS } from "../fault-endpoints";
import type { DeliveryFaultKind, FaultConfig, FaultKind, ServiceFaultKind } from "../state";
import { isJsonObject, ProblemList } from "../validation";
import { purchaseDraft } from "./label-purchase";
import { findAnyLabel } from "./labels";
import { parseBody } from "./request-steps";
import { isError, respondError, respondJson, respondProblems } from "./responses";

const SERVICE_FAULT_KINDS: readonly ServiceFaultKind[] = [
  "rate_limited",
  "unavailable",
  "drop_connection",
  "lost_after_charge",
];
const DELIVERY_FAULT_KINDS: readonly DeliveryFaultKind[] = [
  "timeout",
  "server_error",
  "drop_connection",
  "answer_lost",
];

export function handleControlPurchase(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const label = findAnyLabel(core, ctx);
  if (isError(label)) return label;
  const org = core.state.organizations.get(label.orgId);
  if (org === undefined) throw new Error(`Label ${label.id} belongs to no known organization ${label.orgId}`);
  return purchaseDraft(core, ctx, org, label);
}

export function handleListDeliveries(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const query = new URLSearchParams(ctx.req.query);
  const deliveries = core.deliveryQueue.list({
    eventId: query.get("event_id") ?? undefined,
    organization: query.get("organization") ?? undefined,
  });
  return respondJson(ctx.requestId, 200, { deliveries });
}

export async function handleRedeliver(core: ShippingCore, ctx: RequestContext): Promise<CoreResponse> {
  if (!core.state.events.has(ctx.params.id)) {
    return respondError(ctx.requestId, 404, "NOT_FOUND", `No event ${ctx.params.id}`);
  }
  await core.deliveryQueue.redeliver(ctx.params.id);
  return respondJson(ctx.requestId, 200, { deliveries: core.deliveryQueue.list({ eventId: ctx.params.id }) });
}

export async function handleFlushDeliveries(core: ShippingCore, ctx: RequestContext): Promise<CoreResponse> {
  core.deliveryQueue.startDue();
  await core.deliveryQueue.flush();
  return respondJson(ctx.requestId, 200, { ok: true });
}

export function handleReset(core: ShippingCore, ctx: RequestContext): CoreResponse {
  core.reset();
  return respondJson(ctx.requestId, 200, { ok: true });
}

export function handleFaults(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const body = parseBody(ctx);
  if (isError(body)) return body;
  const problems = new ProblemList();
  const latency: Record<string, number> = {};
  if (body.latency_ms !== undefined) {
    if (!isJsonObject(body.latency_ms)) problems.add("latency_ms", "must be an object");
    else {
      for (const [endpoint, ms] of Object.entries(body.latency_ms)) {
        if (!(FAULT_ENDPOINTS as readonly string[]).includes(endpoint))
          problems.add(`latency_ms.${endpoint}`, "unknown endpoint");
        else if (typeof ms !== "number" || ms < 0) problems.add(`latency_ms.${endpoint}`, "must be a number >= 0");
        else latency[endpoint] = ms;
      }
    }
  }
  const failures: NonNullable<FaultConfig["failures"]> = [];
  if (body.failures !== undefined) {
    if (!Array.isArray(body.failures)) problems.add("failures", "must be an array");
    else {
      (body.failures as unknown[]).forEach((f, i) => {
        const path = `failures[${i}]`;
        if (!isJsonObject(f)) return problems.add(path, "must be an object");
        const endpoint =
          typeof f.endpoint === "string" && (FAULT_ENDPOINTS as readonly string[]).includes(f.endpoint)
            ? f.endpoint
            : null;
        if (endpoint === null) problems.add(`${path}.endpoint`, `must be one of ${FAULT_ENDPOINTS.join(", ")}`);
        // Deliveries fail the way a receiver does; the service's routes the way the service does.
        const kinds: readonly FaultKind[] =
          endpoint === DELIVERY_FAULT_ENDPOINT ? DELIVERY_FAULT_KINDS : SERVICE_FAULT_KINDS;
        const kind = kinds.find((k) => k === f.kind);
        if (kind === undefined) problems.add(`${path}.kind`, `must be one of ${kinds.join(", ")}`);
        const times = f.times === undefined ? 1 : f.times;
        if (typeof times !== "number" || !Number.isInteger(times) || times < 1)
          problems.add(`${path}.times`, "must be a positive integer");
        const retryAfter = f.retry_after === undefined ? 1 : f.retry_after;
        if (typeof retryAfter !== "number" || retryAfter < 0)
          problems.add(`${path}.retry_after`, "must be a number of seconds");
        if (endpoint !== null && kind !== undefined && typeof times === "number" && typeof retryAfter === "number") {
          failures.push({ endpoint, kind, times, retry_after: retryAfter });
        }
      });
    }
  }
  if (!problems.isEmpty) return respondProblems(ctx.requestId, "VALIDATION_FAILED", problems.items);
  core.state.setFaults({ latency_ms: latency, failures });
  return respondJson(ctx.requestId, 200, { ok: true });
}

export function handleClock(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const body = parseBody(ctx);
  if (isError(body)) return body;
  if (typeof body.now === "string" && !Number.isNaN(Date.parse(body.now))) core.setFixedNow(new Date(body.now));
  else if (typeof body.advance_seconds === "number")
    core.setFixedNow(new Date(core.now().getTime() + body.advance_seconds * 1000));
  else return respondError(ctx.requestId, 400, "VALIDATION_FAILED", 'Send {"now": ISO date} or {"advance_seconds": n}');
  return respondJson(ctx.requestId, 200, { now: core.now().toISOString() });
}

/** Process figures for the bench (server RSS measured from inside the server process). */
export function handleStats(core: ShippingCore, ctx: RequestContext): CoreResponse {
  // ?gc=1 on a server started with --expose-gc measures the live heap, not uncollected garbage.
  const gc: unknown = (globalThis as { gc?: unknown }).gc;
  if (new URLSearchParams(ctx.req.query).get("gc") === "1" && typeof gc === "function") gc();
  const memory = process.memoryUsage();
  return respondJson(ctx.requestId, 200, {
    rss_bytes: memory.rss,
    heap_used_bytes: memory.heapUsed,
    heap_total_bytes: memory.heapTotal,
    external_bytes: memory.external,
    labels_stored: core.state.labels.size,
    rates_stored: core.state.rates.size,
  });
}

export function handleOrganization(core: ShippingCore, ctx: RequestContext): CoreResponse {
  const org = core.state.organizations.get(ctx.params.id);
  if (org === undefined) return respondError(ctx.requestId, 404, "NOT_FOUND", `No organization ${ctx.params.id}`);
  return respondJson(ctx.requestId, 200, {
    id: org.id,
    balance: formatCents(org.balanceCents),
    label_allowance: org.labelAllowance,
    labels_created: org.labelsCreated,
    validations_billed: org.validationsBilled,
    charges: org.charges.map((c) => ({ label_id: c.labelId, amount: formatCents(c.amountCents) })),
    refunds: org.refunds.map((r) => ({
      label_id: r.labelId,
      amount: formatCents(r.amountCents),
      refunded_at: r.refundedAt,
    })),
    voids_pending: [...core.state.pendingVoids.keys()].filter((id) => core.state.labels.get(id)?.orgId === org.id),
  });
}
