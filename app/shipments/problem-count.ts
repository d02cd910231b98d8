import type { KnownPreflightProblem } from "~/shipping/preflight";

// The one count of a shipment's problems, from the one judge's list (check-shipment.ts): one per
// field, a field with two problems counted once. The order page's banner ("2 details need
// fixing"), the Orders list's badge ("2 to fix") and the extension's refusal count with it, so
// they say the same number. Pure, browser-safe.

export type FieldProblems = { path: string; severity: "blocking" | "warning"; problems: KnownPreflightProblem[] };

/** Problems grouped by the field they are about, blocking fields first: what the summary counts and lists. */
export function groupByField(problems: readonly KnownPreflightProblem[]): FieldProblems[] {
  const groups = new Map<string, KnownPreflightProblem[]>();
  for (const p of problems) {
    if (p.severity === "info") continue;
    groups.set(p.path, [...(groups.get(p.path) ?? []), p]);
  }
  return [...groups.entries()]
    .map(([path, list]) => ({
      path,
      severity: list.some((p) => p.severity === "blocking") ? ("blocking" as const) : ("warning" as const),
      problems: list,
    }))
    .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "blocking" ? -1 : 1));
}

export type ProblemCount = {
  /** Fields that block the label: it cannot be bought until each is fixed. */
  blocking: number;
  /** Fields worth a look that block nothing. */
  warnings: number;
  /** The first few fields' messages, blocking first. */
  messages: string[];
};

/** How many fields need fixing and how many to check, with the first `max` fields' messages. */
export function countProblems(problems: readonly KnownPreflightProblem[], max = 3): ProblemCount {
  const fields = groupByField(problems);
  const blocking = fields.filter((f) => f.severity === "blocking").length;
  return {
    blocking,
    warnings: fields.length - blocking,
    messages: fields.slice(0, max).map((f) =>
      f.problems
        .filter((p) => p.severity !== "info")
        .map((p) => p.message)
        .join(" "),
    ),
  };
}
