import { readPath, splitPath } from "~/shipments/label-form";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";

// The label form's fields by problem path: each field carries the id `fieldId(path)`, so the
// problem summary can take the merchant to the field a problem is about. Pure, browser-safe.

/** The DOM id of the form field for a request path, e.g. "to_address.zip" → "label-field-to_address-zip". */
export function fieldId(path: string): string {
  return `label-field-${path.replace(/[^A-Za-z0-9_]+/g, "-").replace(/-+$/, "")}`;
}

const ADDRESS_FIELDS = ["name", "company", "street1", "street2", "city", "state", "zip", "country", "phone", "email"];
const BOX_FIELDS = ["weight", "length", "width", "height"];
const CUSTOMS_FIELDS = ["description", "value", "hs_code", "country_of_origin", "contents_type", "tax_id", "eel_pfc"];

/** Every path the form shows a field for, given the request as it stands. */
export function formFieldPaths(request: LabelRequestInput, international: boolean): Set<string> {
  const paths = new Set<string>(["from_address", "label_format", "label_size", "ship_date"]);
  for (const field of ADDRESS_FIELDS) paths.add(`to_address.${field}`);
  const boxes = request.parcels ? request.parcels.map((_, i) => `parcels[${i}]`) : ["parcel"];
  for (const box of boxes) for (const field of BOX_FIELDS) paths.add(`${box}.${field}`);
  if (international) for (const field of CUSTOMS_FIELDS) paths.add(`customs.${field}`);
  return paths;
}

/**
 * The field a problem is about, or null when the form has none for it (the shipment itself, a
 * whole address): the path itself, else the nearest field above it (any sender detail → the
 * ship-from location, whose address the sender is).
 */
export function fieldPathFor(problemPath: string, fields: ReadonlySet<string>): string | null {
  const segments = splitPath(problemPath);
  for (let n = segments.length; n > 0; n--) {
    const path = segments
      .slice(0, n)
      .reduce<string>((acc, s) => (typeof s === "number" ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), "");
    if (fields.has(path)) return path;
  }
  return null;
}

const key = (p: KnownPreflightProblem) => `${p.path}|${p.code}`;
const said = (p: KnownPreflightProblem) => `${p.path}|${p.message}`;

/**
 * One list of the form's problems: its own check first, then what the server answered that it
 * did not already say (the same path and code, or the same words on the same field, count once,
 * whichever answer said them). A suggestion the field already holds is dropped: it was applied.
 */
export function mergeProblems(
  own: readonly KnownPreflightProblem[],
  answered: readonly KnownPreflightProblem[],
  request: LabelRequestInput,
): KnownPreflightProblem[] {
  const keys = new Set<string>();
  const merged: KnownPreflightProblem[] = [];
  for (const problem of [...own, ...answered]) {
    if (keys.has(key(problem)) || keys.has(said(problem))) continue;
    keys.add(key(problem));
    keys.add(said(problem));
    const applied = problem.suggestion !== undefined && readPath(request, problem.path) === problem.suggestion;
    if (applied) {
      const { suggestion: _applied, ...rest } = problem;
      merged.push(rest);
    } else merged.push(problem);
  }
  return merged;
}

/**
 * What the server said about the details it was sent (`posted`) that still holds for the details
 * as they are now: a problem about a field the merchant changed since is dropped (they fixed it,
 * or the next answer judges the new value). Problems about something the request does not hold
 * (the shipment, its items) stay. Without the posted request, everything stays.
 */
export function stillApplies(
  problems: readonly KnownPreflightProblem[],
  posted: LabelRequestInput | null,
  current: LabelRequestInput,
): KnownPreflightProblem[] {
  if (!posted) return [...problems];
  const at = (request: LabelRequestInput, path: string) => JSON.stringify(readPath(request, path) ?? null);
  return problems.filter((p) => at(posted, p.path) === at(current, p.path));
}
