// The GraphQL Admin API's rate limit for one app on one store: a leaky bucket of query-cost
// points whose size and restore rate follow the store's plan.
//
// Restore rates are Shopify's published figures (points per second, per app and store):
//   https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits
//   Standard 100, Advanced Shopify 200, Shopify Plus 1,000, Shopify for enterprise (Commerce
//   Components) 2,000. "Standard" covers every plan below Advanced (Basic, Grow, development stores).
// Bucket sizes are not in that table: Shopify reports them in every answer as
// `extensions.cost.throttleStatus.maximumAvailable`, and answers from real stores give twenty
// seconds of the restore rate (2,000 on Standard, 4,000 on Advanced, 20,000 on Plus). Enterprise's
// 40,000 follows the same rule and is the one figure here not seen in a real answer.
// The single-query limit (1,000 points, every plan) is in query-cost.ts.

export const SHOPIFY_PLANS = ["standard", "advanced", "plus", "enterprise"] as const;
export type ShopifyPlan = (typeof SHOPIFY_PLANS)[number];

// Most merchants are on a Standard plan, so the emulator is too unless told otherwise.
export const DEFAULT_SHOPIFY_PLAN: ShopifyPlan = "standard";

export interface RateLimit {
  // The bucket's size in points: what a full bucket holds.
  maximumAvailable: number;
  // Points restored per second.
  restoreRate: number;
}

export const PLAN_RATE_LIMITS: Readonly<Record<ShopifyPlan, Readonly<RateLimit>>> = {
  standard: { maximumAvailable: 2_000, restoreRate: 100 },
  advanced: { maximumAvailable: 4_000, restoreRate: 200 },
  plus: { maximumAvailable: 20_000, restoreRate: 1_000 },
  enterprise: { maximumAvailable: 40_000, restoreRate: 2_000 },
};

export function isShopifyPlan(value: unknown): value is ShopifyPlan {
  return typeof value === "string" && (SHOPIFY_PLANS as readonly string[]).includes(value);
}

/** The plan a command-line value names (case-insensitive), or undefined. */
export function parseShopifyPlan(value: string | undefined): ShopifyPlan | undefined {
  const normalized = value?.trim().toLowerCase();
  return isShopifyPlan(normalized) ? normalized : undefined;
}

/**
 * The plan `--plan <name>` (or `--plan=<name>`) names among command-line arguments; undefined
 * without the flag. Throws on a name that is not a plan, so a typo never runs on the wrong limits.
 */
export function planFromArgs(argv: readonly string[]): ShopifyPlan | undefined {
  const index = argv.indexOf("--plan");
  const value = index === -1 ? argv.find((a) => a.startsWith("--plan="))?.slice("--plan=".length) : argv[index + 1];
  if (index === -1 && value === undefined) return undefined;
  const plan = parseShopifyPlan(value);
  if (!plan) throw new Error(`--plan needs one of ${SHOPIFY_PLANS.join(", ")} (got ${value ?? "nothing"})`);
  return plan;
}

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface RateLimitOptions {
  // The store's plan; default Standard.
  plan?: ShopifyPlan;
  // Overrides the plan's figures (either or both); false turns throttling off.
  throttle?: Partial<RateLimit> | false;
  // Milliseconds since the epoch.
  now?: () => number;
}

/** The bucket a store's options give: the plan's figures, with `throttle` on top. */
export function rateLimitFor(options: Pick<RateLimitOptions, "plan" | "throttle">): RateLimit {
  return { ...PLAN_RATE_LIMITS[options.plan ?? DEFAULT_SHOPIFY_PLAN], ...(options.throttle || {}) };
}

export interface CostBucket {
  readonly limit: RateLimit;
  readonly enabled: boolean;
  /** The bucket as Shopify reports it now (`extensions.cost.throttleStatus`). */
  status(): ThrottleStatus;
  /** Takes the requested cost, or answers false when the bucket cannot hold it. */
  take(cost: number): boolean;
  /** Gives back what a query did not use (requested minus actual). */
  refund(points: number): void;
  /** Full again, as a fresh store. */
  reset(): void;
}

// Shopify's leaky bucket: a query may run when the bucket holds its requested cost; the bucket
// refills continuously at the restore rate, up to its size, and is refunded what a query did not use.
export function createCostBucket(options: RateLimitOptions = {}): CostBucket {
  const enabled = options.throttle !== false;
  const limit = rateLimitFor(options);
  const now = options.now ?? (() => Date.now());
  let available = limit.maximumAvailable;
  let updatedAt = now();
  const refill = () => {
    const at = now();
    available = Math.min(limit.maximumAvailable, available + (Math.max(0, at - updatedAt) / 1000) * limit.restoreRate);
    updatedAt = at;
  };
  return {
    limit,
    enabled,
    status() {
      refill();
      return {
        maximumAvailable: limit.maximumAvailable,
        currentlyAvailable: Math.floor(available),
        restoreRate: limit.restoreRate,
      };
    },
    take(cost) {
      refill();
      if (!enabled) return true;
      if (cost > available) return false;
      available -= cost;
      return true;
    },
    refund(points) {
      if (enabled) available = Math.min(limit.maximumAvailable, available + Math.max(0, points));
    },
    reset() {
      available = limit.maximumAvailable;
      updatedAt = now();
    },
  };
}
