// The emulator's shared core: its state, address validator, event delivery queue and clock, and the
// dispatch of one transport-neutral request (latency and injected failures first) to the handler
// routes.ts picks. The handlers in handlers/ are functions over this object.

import { type AddressValidationResult, AddressValidator } from "./address-validation";
import { type EmulatorConfig, parseMoneyToCents } from "./config";
import { type DeliveryOptions, DeliveryQueue } from "./event-delivery";
import { DELIVERY_FAULT_ENDPOINT } from "./fault-endpoints";
import { decideDueVoids } from "./handlers/label-void";
import { respondError } from "./handlers/responses";
import { matchRoute } from "./routes";
import { EmulatorState } from "./state";

/** A request as the core handler sees it: transport-neutral. */
export interface CoreRequest {
  method: string;
  path: string;
  /** The raw query string without "?" (parsed only where a handler needs it). */
  query: string;
  authorization: string | undefined;
  rawBody: string;
  /** Origin the client used (http://host:port), for absolute label URLs. */
  origin: string;
}

export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** Close the connection without a response (fault injection). */
  drop?: boolean;
}

/** One request as a handler sees it: the request, its id, and the id taken from the path. */
export interface RequestContext {
  req: CoreRequest;
  requestId: string;
  params: { id: string };
}

export type Handler = (core: ShippingCore, ctx: RequestContext) => CoreResponse | Promise<CoreResponse>;

/** setTimeout's ceiling (about 24.8 days); a later decision re-arms when this one fires. */
const MAX_TIMER_MS = 2_147_483_647;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class ShippingCore {
  readonly state: EmulatorState;
  readonly validator: AddressValidator;
  readonly deliveryQueue: DeliveryQueue;
  readonly validationCache = new Map<string, AddressValidationResult>();
  readonly validationPriceCents: number;
  private fixedNow: Date | null = null;
  private voidTimer: ReturnType<typeof setTimeout> | null = null;
  /** The origin of the latest request: label URLs for calls made in-process without a baseUrl. */
  private latestOrigin = "http://127.0.0.1:4010";

  constructor(
    readonly config: EmulatorConfig,
    private readonly clock: () => Date,
    readonly baseUrl: string | undefined,
    deliveryOptions: DeliveryOptions | undefined,
  ) {
    this.state = new EmulatorState(config);
    this.validator = new AddressValidator(config);
    this.validationPriceCents = parseMoneyToCents(config.address_validation.price);
    this.deliveryQueue = new DeliveryQueue(
      {
        now: () => this.now(),
        isClockFixed: () => this.fixedNow !== null,
        nextId: (prefix) => this.state.nextId(prefix),
        takeFault: () => this.state.takeFailure(DELIVERY_FAULT_ENDPOINT),
        latencyMs: () => this.state.latencyMs.get(DELIVERY_FAULT_ENDPOINT) ?? 0,
      },
      deliveryOptions,
    );
  }

  now(): Date {
    return this.fixedNow ?? this.clock();
  }

  /** Time moved: whatever retry or void decision it made due happens now, as on the real service. */
  setFixedNow(date: Date): void {
    this.fixedNow = date;
    this.clearVoidTimer();
    decideDueVoids(this);
    this.deliveryQueue.startDue();
  }

  /**
   * A void is decided at `dueMs` on the emulator's clock. Requests settle what is due before they
   * are handled; while the clock runs, an unref'd timer also wakes up for it (events go out on
   * time with nobody asking). A fixed clock arms none: moving it decides.
   */
  scheduleVoidDecision(labelId: string, dueMs: number): void {
    this.state.pendingVoids.set(labelId, dueMs);
    this.armVoidTimer();
  }

  private armVoidTimer(): void {
    this.clearVoidTimer();
    if (this.fixedNow !== null || this.state.pendingVoids.size === 0) return;
    const earliest = Math.min(...this.state.pendingVoids.values());
    const delay = Math.min(Math.max(0, earliest - this.now().getTime()), MAX_TIMER_MS);
    this.voidTimer = setTimeout(() => {
      this.voidTimer = null;
      decideDueVoids(this);
      this.armVoidTimer();
    }, delay);
    this.voidTimer.unref();
  }

  private clearVoidTimer(): void {
    if (this.voidTimer !== null) clearTimeout(this.voidTimer);
    this.voidTimer = null;
  }

  reset(): void {
    this.clearVoidTimer();
    this.state.reset();
    this.deliveryQueue.reset();
    this.fixedNow = null;
    this.validationCache.clear();
  }

  get lastOrigin(): string {
    return this.latestOrigin;
  }

  today(): string {
    return this.now().toISOString().slice(0, 10);
  }

  async handle(req: CoreRequest): Promise<CoreResponse> {
    const requestId = this.state.nextId("req");
    this.latestOrigin = req.origin;
    // Whatever the carrier has decided by now shows in this answer.
    decideDueVoids(this);
    const route = matchRoute(req.method, req.path);
    if (route === null) return respondError(requestId, 404, "NOT_FOUND", `No route for ${req.method} ${req.path}`);
    const ctx: RequestContext = { req, requestId, params: { id: route.id } };
    const latency = this.state.latencyMs.get(route.template);
    if (latency !== undefined) await sleep(latency);
    const failure = route.faultable ? this.state.takeFailure(route.template) : null;
    if (failure !== null) {
      if (failure.kind === "rate_limited") {
        return respondError(requestId, 429, "RATE_LIMITED", "Too many requests", undefined, undefined, {
          "retry-after": String(failure.retryAfter),
        });
      }
      if (failure.kind === "unavailable") {
        return respondError(
          requestId,
          503,
          "SERVICE_UNAVAILABLE",
          "The service is temporarily unavailable",
          undefined,
          undefined,
          {
            "retry-after": String(failure.retryAfter),
          },
        );
      }
      if (failure.kind === "drop_connection") return { status: 0, headers: {}, body: "", drop: true };
    }
    const response = await route.handler(this, ctx);
    // "Charged but the response was lost": the work is done, the client never hears of it.
    if (failure?.kind === "lost_after_charge") return { status: 0, headers: {}, body: "", drop: true };
    return response;
  }
}
