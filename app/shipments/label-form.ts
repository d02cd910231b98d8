import type { ProductForCustoms } from "~/shipping/customs-description";
import { type KnownPreflightProblem, type LabelRequestInput, preflightLabelRequest } from "~/shipping/preflight";

// The order page's form is the label request itself (LabelRequestInput, nested as the wire
// has it) plus the items it ships. Pure and browser-safe: the page runs preflight on every edit
// with these helpers, and the route parses what the form sends with the schemas below.

export type FormLineItem = { id: string; quantity: number };

/** Problems that need a chosen service or rate; they cannot apply before Get rates. */
const NOT_BEFORE_A_RATE = new Set(["SERVICE_REQUIRED", "MULTI_PIECE_SERVICE_UNSUPPORTED"]);

type PathSegment = string | number;

/** "parcels[1].weight" → ["parcels", 1, "weight"]. */
export function splitPath(path: string): PathSegment[] {
  return path
    .split(/\.|\[(\d+)\]/)
    .filter((part): part is string => part !== undefined && part !== "")
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of splitPath(path)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PathSegment, unknown>)[segment];
  }
  return current;
}

/** A copy of `value` with `path` set; missing objects and arrays on the way are created. */
export function writePath<T>(value: T, path: string, next: unknown): T {
  const segments = splitPath(path);
  const write = (node: unknown, index: number): unknown => {
    const segment = segments[index];
    if (segment === undefined) return next;
    const container: Record<PathSegment, unknown> | unknown[] = Array.isArray(node)
      ? [...node]
      : node !== null && typeof node === "object"
        ? { ...(node as Record<string, unknown>) }
        : typeof segment === "number"
          ? []
          : {};
    const record = container as Record<PathSegment, unknown>;
    record[segment] = write(record[segment], index + 1);
    return container;
  };
  return write(value, 0) as T;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Everything wrong with the request as the merchant has it now: preflight on the current values,
 * plus each problem prefill found that preflight cannot see (the fulfillment order, a vague
 * product type) for as long as the field it names is untouched. Once the merchant edits that
 * field, preflight alone decides.
 */
export function collectFormProblems(input: {
  prefilled: LabelRequestInput;
  prefillProblems: readonly KnownPreflightProblem[];
  current: LabelRequestInput;
  products: ProductForCustoms[];
}): KnownPreflightProblem[] {
  const live = preflightLabelRequest(input.current, { products: input.products }).filter(
    (p) => !NOT_BEFORE_A_RATE.has(p.code),
  );
  return sortProblems([...keepPrefillProblems({ ...input, besides: live }), ...live]);
}

const SEVERITY_ORDER = { blocking: 0, warning: 1, info: 2 } as const;

/** Blocking first, then warnings, then notes; the order within each kept. */
export function sortProblems(problems: readonly KnownPreflightProblem[]): KnownPreflightProblem[] {
  return [...problems].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}

/**
 * The problems prefill found that still hold: those whose field the merchant has not edited, and
 * that `besides` (preflight's own verdict on the current request) does not already say.
 */
export function keepPrefillProblems(input: {
  prefilled: LabelRequestInput;
  prefillProblems: readonly KnownPreflightProblem[];
  current: LabelRequestInput;
  besides: readonly KnownPreflightProblem[];
}): KnownPreflightProblem[] {
  const seen = new Set(input.besides.map((p) => `${p.path}|${p.code}`));
  return input.prefillProblems.filter(
    (p) =>
      !seen.has(`${p.path}|${p.code}`) &&
      (isAboutTheShipment(p.path) || same(readPath(input.prefilled, p.path), readPath(input.current, p.path))),
  );
}

// The shipment as Shopify holds it (held, closed, duties paid at checkout, more items than read):
// not a field of the request, so nothing the form sends can settle it, even a forged key of that name.
const isAboutTheShipment = (path: string) => path === "fulfillment_order" || path.startsWith("fulfillment_order.");

/** The problems to show next to one field or group: its path and everything under it. */
export function problemsAt(problems: readonly KnownPreflightProblem[], path: string): KnownPreflightProblem[] {
  return problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`) || p.path.startsWith(`${path}[`));
}
