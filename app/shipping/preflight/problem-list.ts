// The one problem list every area check writes to, and the small readers they share (blank,
// enum membership, an address's country). Separate so each area module (addresses.ts,
// parcels.ts, service.ts, ...) adds problems the same way without importing another area.

import type { KnownPreflightProblem, LabelRequestInput, PreflightSeverity, RequestPreflightCode } from "../preflight";

export type AddressInput = NonNullable<LabelRequestInput["from_address"]>;
export type ParcelInput = NonNullable<LabelRequestInput["parcel"]>;

export function isBlank(value: unknown): boolean {
  return value == null || (typeof value === "string" && value.trim() === "");
}

export function isOneOf(value: unknown, allowed: readonly string[]): boolean {
  return typeof value === "string" && allowed.includes(value);
}

export function countryOf(address: AddressInput | null | undefined): string {
  const country = address?.country;
  return isBlank(country) || typeof country !== "string" ? "US" : country.trim().toUpperCase();
}

export function cutText(text: string, limit: number): string {
  return text.slice(limit);
}

export class ProblemList {
  readonly items: KnownPreflightProblem[] = [];
  block(path: string, code: RequestPreflightCode, message: string, suggestion?: string): void {
    this.add("blocking", path, code, message, suggestion);
  }
  warn(path: string, code: RequestPreflightCode, message: string, suggestion?: string): void {
    this.add("warning", path, code, message, suggestion);
  }
  info(path: string, code: RequestPreflightCode, message: string): void {
    this.add("info", path, code, message);
  }
  push(problem: KnownPreflightProblem | null): void {
    if (problem) this.items.push(problem);
  }
  private add(
    severity: PreflightSeverity,
    path: string,
    code: RequestPreflightCode,
    message: string,
    suggestion?: string,
  ): void {
    const problem: KnownPreflightProblem = { path, code, severity, message };
    if (suggestion !== undefined) problem.suggestion = suggestion;
    this.items.push(problem);
  }
}
