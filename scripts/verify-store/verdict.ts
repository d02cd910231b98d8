// What each check answers. A check never throws for something the store said: it answers a
// verdict, and a verdict always says what to look at next.

export const CHECK_NAMES = ["staff-scope", "print-auth", "carrier-tracking"] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export type VerdictStatus = "PASS" | "FAIL" | "NEEDS-HUMAN";

export interface Verdict {
  readonly check: CheckName;
  readonly status: VerdictStatus;
  /** One sentence: what Shopify did. */
  readonly summary: string;
  /** What was seen, and what to do about it. */
  readonly details: readonly string[];
}

export const verdict = (
  check: CheckName,
  status: VerdictStatus,
  summary: string,
  details: readonly string[] = [],
): Verdict => ({ check, status, summary, details });

/** The lines printed for one verdict. */
export function formatVerdict(v: Verdict): string[] {
  return [`[${v.status}] ${v.check}: ${v.summary}`, ...v.details.map((d) => `    ${d}`)];
}

/** The last line: FAIL if any check failed, else NEEDS-HUMAN if any needs one, else PASS. */
export function formatResult(verdicts: readonly Verdict[]): string {
  const count = (s: VerdictStatus) => verdicts.filter((v) => v.status === s).length;
  const overall: VerdictStatus = count("FAIL") > 0 ? "FAIL" : count("NEEDS-HUMAN") > 0 ? "NEEDS-HUMAN" : "PASS";
  return `RESULT ${overall} (${count("PASS")} passed, ${count("FAIL")} failed, ${count("NEEDS-HUMAN")} need a human)`;
}
