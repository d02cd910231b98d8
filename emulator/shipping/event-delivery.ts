// At-least-once delivery of events to webhook endpoints: signed POSTs, retries on the contract's
// schedule driven by the emulator's clock, and a log of every attempt. Retries run when the clock
// says they are due: on a real clock a timer wakes them up; on a fixed (test) clock they run when
// the clock is moved, so tests decide exactly when time passes.

import { type EventEnvelope, signEventBody, type WebhookEndpointRecord } from "./events";
import type { ActiveFailure } from "./state";

/** After a failed attempt: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h (contract.md). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000,
];
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
const MAX_STORED_DELIVERIES = 10_000;
const ANSWER_EXCERPT_CHARS = 500;
/** setTimeout's ceiling (about 24.8 days); a later retry re-arms when this one fires. */
const MAX_TIMER_MS = 2_147_483_647;

export type DeliveryFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface DeliveryOptions {
  /** Sends one attempt. Default: the global fetch. Tests pass a receiver to deliver in-process. */
  fetch?: DeliveryFetch;
  /** Delays after each failed attempt; their count is the number of retries. */
  retryDelaysMs?: readonly number[];
  /** An attempt without a 2xx answer within this time fails (real time, and the emulator's clock). */
  timeoutMs?: number;
  /** Wake up due retries with real timers while the clock runs (default true). A fixed clock never arms them. */
  retryTimers?: boolean;
}

export type DeliveryStatus = "pending" | "delivered" | "given_up";

export interface DeliveryAttemptView {
  number: number;
  /** The emulator's clock when the attempt started; `t` is the same instant in unix seconds. */
  at: string;
  t: number;
  /** The receiver's HTTP status, null when there was no answer. */
  status: number | null;
  /** Why the attempt failed, null when it succeeded. */
  error: string | null;
  /** The start of the receiver's answer body. */
  answer: string | null;
  duration_ms: number;
  /** A redelivery asked for through the control endpoint, outside the retry schedule. */
  manual: boolean;
}

export interface DeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  organization: string;
  endpoint_id: string;
  url: string;
  status: DeliveryStatus;
  /** Why a delivery was given up. */
  reason: string | null;
  in_flight: boolean;
  next_attempt_at: string | null;
  attempts: DeliveryAttemptView[];
  event: EventEnvelope;
}

interface Delivery {
  id: string;
  event: EventEnvelope;
  /** Serialized once: every attempt sends (and signs) the same bytes. */
  body: string;
  endpointId: string;
  url: string;
  secret: string;
  status: DeliveryStatus;
  reason: string | null;
  inFlight: boolean;
  nextAttemptAtMs: number | null;
  attempts: DeliveryAttemptView[];
}

/** What the queue needs from the emulator around it. */
export interface DeliveryHost {
  now(): Date;
  /** True while the clock is fixed by a test: time passes only when it is moved. */
  isClockFixed(): boolean;
  nextId(prefix: string): string;
  takeFault(): ActiveFailure | null;
  latencyMs(): number;
}

class AttemptAbortedError extends Error {}

export class DeliveryQueue {
  private readonly deliveries = new Map<string, Delivery>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly controllers = new Set<AbortController>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped on reset: attempts started before it must not touch the new state. */
  private generation = 0;
  private readonly send: DeliveryFetch;
  private readonly retryDelaysMs: readonly number[];
  private readonly timeoutMs: number;
  private readonly retryTimers: boolean;

  constructor(
    private readonly host: DeliveryHost,
    options: DeliveryOptions = {},
  ) {
    // Looked up per call so that a fetch patched later (msw in tests) is used.
    this.send = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    this.retryTimers = options.retryTimers ?? true;
  }

  /** One delivery per endpoint; the first attempts start after the caller has answered. */
  publish(event: EventEnvelope, endpoints: readonly WebhookEndpointRecord[]): void {
    if (endpoints.length === 0) return;
    const body = JSON.stringify(event);
    for (const endpoint of endpoints) {
      const delivery: Delivery = {
        id: this.host.nextId("dlv"),
        event,
        body,
        endpointId: endpoint.id,
        url: endpoint.url,
        secret: endpoint.secret,
        status: "pending",
        reason: null,
        inFlight: false,
        nextAttemptAtMs: null,
        attempts: [],
      };
      this.deliveries.set(delivery.id, delivery);
      this.startAttempt(delivery, false);
    }
    this.evictFinished();
  }

  /** Starts every retry whose time has come on the emulator's clock. */
  startDue(): void {
    const nowMs = this.host.now().getTime();
    for (const delivery of this.deliveries.values()) {
      if (
        delivery.status === "pending" &&
        !delivery.inFlight &&
        delivery.nextAttemptAtMs !== null &&
        delivery.nextAttemptAtMs <= nowMs
      ) {
        this.startAttempt(delivery, false);
      }
    }
    this.armTimer();
  }

  /** Resolves when no attempt is in flight; retries scheduled later do not hold it up. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** A manual attempt of each delivery of the event, now; false when the event had none. */
  async redeliver(eventId: string): Promise<boolean> {
    const matching = [...this.deliveries.values()].filter((d) => d.event.id === eventId);
    for (const delivery of matching) if (!delivery.inFlight) this.startAttempt(delivery, true);
    await this.flush();
    return matching.length > 0;
  }

  /** A deleted endpoint gets no more retries. */
  cancelEndpoint(endpointId: string): void {
    for (const delivery of this.deliveries.values()) {
      if (delivery.endpointId === endpointId && delivery.status === "pending") {
        delivery.status = "given_up";
        delivery.reason = "the endpoint was deleted";
        delivery.nextAttemptAtMs = null;
      }
    }
    this.armTimer();
  }

  list(filter: { eventId?: string; organization?: string } = {}): DeliveryView[] {
    const views: DeliveryView[] = [];
    for (const d of this.deliveries.values()) {
      if (filter.eventId !== undefined && d.event.id !== filter.eventId) continue;
      if (filter.organization !== undefined && d.event.organization !== filter.organization) continue;
      views.push({
        id: d.id,
        event_id: d.event.id,
        event_type: d.event.type,
        organization: d.event.organization,
        endpoint_id: d.endpointId,
        url: d.url,
        status: d.status,
        reason: d.reason,
        in_flight: d.inFlight,
        next_attempt_at: d.nextAttemptAtMs === null ? null : new Date(d.nextAttemptAtMs).toISOString(),
        attempts: d.attempts.map((a) => ({ ...a })),
        event: structuredClone(d.event),
      });
    }
    return views;
  }

  reset(): void {
    this.generation += 1;
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
    this.inFlight.clear();
    this.deliveries.clear();
    this.clearTimer();
  }

  private startAttempt(delivery: Delivery, manual: boolean): void {
    delivery.inFlight = true;
    const generation = this.generation;
    const run = this.attempt(delivery, manual, generation).finally(() => {
      this.inFlight.delete(run);
    });
    this.inFlight.add(run);
  }

  private async attempt(delivery: Delivery, manual: boolean, generation: number): Promise<void> {
    // Asynchronous from the request that caused it: the caller's answer goes out first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (generation !== this.generation) return;
    const startedAt = this.host.now().getTime();
    const startedReal = performance.now();
    const t = Math.floor(startedAt / 1000);
    const outcome = await this.sendOnce(delivery, t);
    if (generation !== this.generation) return;
    const clockElapsed = this.host.now().getTime() - startedAt;
    // A late answer on the emulator's clock is a timeout too: tests can cross the 10 s line
    // deterministically by moving the clock inside their receiver.
    if (outcome.error === null && clockElapsed > this.timeoutMs) {
      outcome.error = `timeout: answered after ${clockElapsed} ms, more than ${this.timeoutMs} ms`;
    }
    delivery.attempts.push({
      number: delivery.attempts.length + 1,
      at: new Date(startedAt).toISOString(),
      t,
      status: outcome.status,
      error: outcome.error,
      answer: outcome.answer,
      duration_ms: Math.round(performance.now() - startedReal),
      manual,
    });
    delivery.inFlight = false;
    this.settle(delivery, manual, outcome.error === null);
    this.armTimer();
  }

  private settle(delivery: Delivery, manual: boolean, delivered: boolean): void {
    if (delivered) {
      delivery.status = "delivered";
      delivery.reason = null;
      delivery.nextAttemptAtMs = null;
      return;
    }
    // A failed manual attempt leaves the schedule (or the give-up) as it was.
    if (manual || delivery.status !== "pending") return;
    const failedScheduled = delivery.attempts.filter((a) => !a.manual).length;
    const delay = this.retryDelaysMs[failedScheduled - 1];
    if (delay === undefined) {
      delivery.status = "given_up";
      delivery.reason = `no 2xx answer after ${failedScheduled} attempts; no more retries`;
      delivery.nextAttemptAtMs = null;
      return;
    }
    delivery.nextAttemptAtMs = this.host.now().getTime() + delay;
  }

  private async sendOnce(
    delivery: Delivery,
    t: number,
  ): Promise<{ status: number | null; error: string | null; answer: string | null }> {
    const controller = new AbortController();
    this.controllers.add(controller);
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener("abort", () => reject(new AttemptAbortedError("aborted")), { once: true });
    });
    aborted.catch(() => undefined);
    const noAnswer = `timeout: no answer within ${this.timeoutMs} ms`;
    try {
      const fault = this.host.takeFault();
      const latency = this.host.latencyMs();
      if (latency > 0) await Promise.race([sleep(latency), aborted]);
      if (fault?.kind === "timeout") return { status: null, error: `${noAnswer} (injected fault)`, answer: null };
      if (fault?.kind === "drop_connection")
        return { status: null, error: "connection failed (injected fault)", answer: null };
      if (fault?.kind === "server_error")
        return { status: 500, error: "HTTP 500 (injected fault)", answer: "Internal Server Error" };
      const response = await Promise.race([
        this.send(delivery.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "shipping-event-id": delivery.event.id,
            "shipping-signature": signEventBody(delivery.secret, t, delivery.body),
          },
          body: delivery.body,
          redirect: "manual",
          signal: controller.signal,
        }),
        aborted,
      ]);
      const text = await Promise.race([response.text(), aborted]);
      const answer = text.slice(0, ANSWER_EXCERPT_CHARS);
      // The receiver got it and answered, but the service never hears: the at-least-once case.
      if (fault?.kind === "answer_lost") return { status: null, error: `${noAnswer} (injected fault)`, answer: null };
      const ok = response.status >= 200 && response.status < 300;
      return { status: response.status, error: ok ? null : `HTTP ${response.status}`, answer };
    } catch (error) {
      if (timedOut) return { status: null, error: noAnswer, answer: null };
      if (error instanceof AttemptAbortedError) return { status: null, error: "aborted by a reset", answer: null };
      return { status: null, error: `connection failed: ${describeError(error)}`, answer: null };
    } finally {
      clearTimeout(timeout);
      this.controllers.delete(controller);
    }
  }

  private armTimer(): void {
    this.clearTimer();
    if (!this.retryTimers || this.host.isClockFixed()) return;
    let earliest: number | null = null;
    for (const d of this.deliveries.values()) {
      if (d.status === "pending" && !d.inFlight && d.nextAttemptAtMs !== null)
        earliest = earliest === null ? d.nextAttemptAtMs : Math.min(earliest, d.nextAttemptAtMs);
    }
    if (earliest === null) return;
    const delay = Math.min(Math.max(0, earliest - this.host.now().getTime()), MAX_TIMER_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.startDue();
    }, delay);
    // A pending retry never keeps a test run or a finished script alive.
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Keeps memory bounded under long runs: finished deliveries go first, oldest first. */
  private evictFinished(): void {
    if (this.deliveries.size <= MAX_STORED_DELIVERIES) return;
    for (const [id, d] of this.deliveries) {
      if (this.deliveries.size <= MAX_STORED_DELIVERIES) return;
      if (d.status !== "pending") this.deliveries.delete(id);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
