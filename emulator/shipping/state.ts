// The emulator's mutable state, rebuilt from the configuration on reset. Stored records are kept
// small and capped (oldest evicted first) so that memory stays flat under bulk benchmarks.

import { type EmulatorConfig, parseMoneyToCents } from "./config";
import type { EventEnvelope, WebhookEndpointRecord } from "./events";
import { makeHexToken } from "./ids";
import type { LabelFormat, LabelSize } from "./label-files";
import type { LabelOptions } from "./options";
import type { Carrier, ServiceDefinition } from "./pricing";
import type { Address, Billing, Customs, JsonObject, Parcel } from "./validation";

export interface OrganizationState {
  id: string;
  labelAllowance: number;
  labelsCreated: number;
  balanceCents: number;
  carrierAccounts: ReadonlyMap<string, string>;
  charges: Array<{ labelId: string; amountCents: number }>;
  /** Credits of voided labels: one per label, never more. */
  refunds: Array<{ labelId: string; amountCents: number; refundedAt: string }>;
  validationsBilled: number;
}

export interface RateRecord {
  id: string;
  orgId: string;
  service: ServiceDefinition;
  amountCents: number;
  shipDate: string;
  expiresAtMs: number;
  /** The options the rate was quoted with (toOptionsKey): it is valid for these only. */
  optionsKey: string;
}

export interface PurchaseRecord {
  rate: { id: string; service: ServiceDefinition; amountCents: number };
  chargedCents: number;
  trackingNumbers: string[];
  purchasedAt: string;
  /** A parcel has a tracking status beyond pre_transit: the label can no longer be voided. */
  scanned: boolean;
}

export interface RefundRecord {
  amountCents: number;
  status: "pending" | "refunded" | "rejected";
  requestedAt: string;
  decidedAt: string | null;
  reason: "scanned" | null;
}

export type LabelStatus = "draft" | "purchased" | "void_pending" | "voided";

export interface LabelRecord {
  id: string;
  orgId: string;
  status: LabelStatus;
  carrier: Carrier;
  service: ServiceDefinition;
  /** The rate the draft was created from; null for carrier+service drafts and overridden rates. */
  rate: RateRecord | null;
  shipDate: string | null;
  from: Address;
  to: Address;
  parcels: Parcel[];
  multiPiece: boolean;
  customs: Customs | null;
  billing: Billing | null;
  carrierAccountId: string | null;
  labelFormat: LabelFormat;
  labelSize: LabelSize;
  reference: string | null;
  platform: string | null;
  platformOrderId: string | null;
  orderId: string | null;
  labelCustomFields: JsonObject | null;
  /** As sent (returned on the record) and as read (priced and checked). */
  options: JsonObject | null;
  labelOptions: LabelOptions;
  warnings: Record<string, string>;
  createdAt: string;
  purchase: PurchaseRecord | null;
  /** Set by the first void request; kept after a rejection (the record shows it). */
  refund: RefundRecord | null;
}

/** Kinds for the service's own endpoints. */
export type ServiceFaultKind = "rate_limited" | "unavailable" | "drop_connection" | "lost_after_charge";
/** Kinds for event deliveries (endpoint key `DELIVERY`): what the receiver or the network does. */
export type DeliveryFaultKind = "timeout" | "server_error" | "drop_connection" | "answer_lost";
export type FaultKind = ServiceFaultKind | DeliveryFaultKind;

export interface FaultConfig {
  latency_ms?: Record<string, number>;
  failures?: Array<{ endpoint: string; kind: FaultKind; times?: number; retry_after?: number }>;
}

export interface ActiveFailure {
  endpoint: string;
  kind: FaultKind;
  remaining: number;
  retryAfter: number;
}

const MAX_STORED_EVENTS = 10_000;
/** contract.md: the carrier decides a void 15 minutes after it was asked for. */
export const DEFAULT_VOID_DECISION_SECONDS = 900;

export class EmulatorState {
  readonly organizations = new Map<string, OrganizationState>();
  readonly labels = new Map<string, LabelRecord>();
  readonly rates = new Map<string, RateRecord>();
  readonly webhookEndpoints = new Map<string, WebhookEndpointRecord>();
  readonly events = new Map<string, EventEnvelope>();
  /** Labels whose void the carrier has not decided yet, with when it will (emulator clock, ms). */
  readonly pendingVoids = new Map<string, number>();
  /** How long the carrier takes to decide a void; the config's, until a control changes it. */
  voidDecisionMs = 0;
  latencyMs = new Map<string, number>();
  failures: ActiveFailure[] = [];
  private readonly counters = new Map<string, number>();

  constructor(readonly config: EmulatorConfig) {
    this.reset();
  }

  reset(): void {
    this.organizations.clear();
    for (const [id, org] of Object.entries(this.config.organizations)) {
      this.organizations.set(id, {
        id,
        labelAllowance: org.label_allowance,
        labelsCreated: 0,
        balanceCents: parseMoneyToCents(org.balance),
        carrierAccounts: new Map(org.carrier_accounts.map((a) => [a.id, a.carrier])),
        charges: [],
        refunds: [],
        validationsBilled: 0,
      });
    }
    this.labels.clear();
    this.rates.clear();
    this.webhookEndpoints.clear();
    this.events.clear();
    this.pendingVoids.clear();
    this.voidDecisionMs = (this.config.voids?.decision_seconds ?? DEFAULT_VOID_DECISION_SECONDS) * 1000;
    this.counters.clear();
    this.latencyMs = new Map();
    this.failures = [];
  }

  /** Next id of a kind: seeded and sequential, so a replay after reset gives the same ids. */
  nextId(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}_${makeHexToken(this.config.seed, prefix, n)}`;
  }

  storeLabel(label: LabelRecord): void {
    this.labels.set(label.id, label);
    evictOldest(this.labels, this.config.limits.max_stored_labels);
  }

  /** Deterministic like every id: an emulator secret protects nothing but the test at hand. */
  nextWebhookSecret(): string {
    const n = (this.counters.get("whsec") ?? 0) + 1;
    this.counters.set("whsec", n);
    return `whsec_${makeHexToken(this.config.seed, "whsec", n)}${makeHexToken(this.config.seed, "whsec|2", n)}`;
  }

  storeEvent(event: EventEnvelope): void {
    this.events.set(event.id, event);
    evictOldest(this.events, MAX_STORED_EVENTS);
  }

  storeRate(rate: RateRecord): void {
    this.rates.set(rate.id, rate);
    evictOldest(this.rates, this.config.limits.max_stored_rates);
  }

  setFaults(faults: FaultConfig): void {
    this.latencyMs = new Map(Object.entries(faults.latency_ms ?? {}).filter(([, ms]) => ms > 0));
    this.failures = (faults.failures ?? []).map((f) => ({
      endpoint: f.endpoint,
      kind: f.kind,
      remaining: f.times ?? 1,
      retryAfter: f.retry_after ?? 1,
    }));
  }

  /** The next injected failure for this endpoint, counting it down; cleared when used up. */
  takeFailure(endpoint: string): ActiveFailure | null {
    if (this.failures.length === 0) return null;
    const failure = this.failures.find((f) => f.endpoint === endpoint && f.remaining > 0);
    if (failure === undefined) return null;
    failure.remaining -= 1;
    if (failure.remaining <= 0) this.failures = this.failures.filter((f) => f !== failure);
    return failure;
  }
}

/** Maps keep insertion order: the first keys are the oldest. */
function evictOldest<V>(map: Map<string, V>, max: number): void {
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done === true) return;
    map.delete(oldest.value);
  }
}
