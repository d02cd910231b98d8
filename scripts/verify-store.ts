// `npx tsx scripts/verify-store.ts --shop <store>.myshopify.com [options]` (npm run verify:store):
// the checks no emulator can settle, run once on a development store. docs/verifying-on-a-store.md
// says what each check is for, where each input comes from and what to do with each verdict.
// It reads the store, exchanges a session token for an online token (never printed, never used
// for a call), and writes only with --allow-writes (one fulfillment on a test order, no
// customer notification). Exit code: 1 when a check fails, 2 for a usage error, else 0.

import { pathToFileURL } from "node:url";

import type { FetchLike } from "./verify-store/admin";
import { checkCarrierTracking } from "./verify-store/carrier-tracking";
import { parseVerifyStoreOptions, USAGE, UsageError, type VerifyStoreOptions } from "./verify-store/options";
import { printInstructions, startPrintListener } from "./verify-store/print-auth";
import { checkStaffScope } from "./verify-store/staff-scope";
import { formatResult, formatVerdict, type Verdict, verdict } from "./verify-store/verdict";

export interface VerifyStoreIo {
  /** One line of output. */
  out(line: string): void;
  fetch?: FetchLike;
  /** Milliseconds since the epoch; tests fix it. */
  now?(): number;
  /** Called once the print listener listens (tests send the print request from here). */
  onPrintListenerReady?(url: string): void;
}

export interface VerifyStoreRun {
  readonly verdicts: readonly Verdict[];
  readonly exitCode: 0 | 1;
}

async function checkPrintAuth(options: VerifyStoreOptions, io: VerifyStoreIo): Promise<Verdict> {
  if (options.printAuth.listenPort === null) {
    return verdict("print-auth", "NEEDS-HUMAN", "Only a click on Print in the admin can show this.", [
      ...printInstructions(null, null),
    ]);
  }
  const listener = await startPrintListener(options);
  try {
    io.out(`print-auth: listening on ${listener.url} for ${options.printAuth.waitSeconds} s.`);
    for (const line of printInstructions(listener.url, options.printAuth.upstream)) io.out(`    ${line}`);
    io.onPrintListenerReady?.(listener.url);
    return await listener.verdict;
  } finally {
    await listener.close();
  }
}

/** Runs the chosen checks in order (the 60-second session token first, the human click last). */
export async function runVerifyStore(options: VerifyStoreOptions, io: VerifyStoreIo): Promise<VerifyStoreRun> {
  const fetchImpl: FetchLike = io.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const connection = { adminOrigin: options.adminOrigin, fetch: fetchImpl };
  const now = () => io.now?.() ?? Date.now();
  io.out(`Verifying ${options.shop} (${options.adminOrigin}): ${options.checks.join(", ")}.`);
  if (options.carrierTracking.allowWrites) {
    io.out("--allow-writes: the carrier-tracking check may create one fulfillment on the given test order.");
  }
  const verdicts: Verdict[] = [];
  const report = (v: Verdict) => {
    verdicts.push(v);
    for (const line of formatVerdict(v)) io.out(line);
  };
  if (options.checks.includes("staff-scope")) report(await checkStaffScope(options, connection, now()));
  if (options.checks.includes("carrier-tracking")) {
    report(await checkCarrierTracking(options, connection, now(), io.out));
  }
  if (options.checks.includes("print-auth")) report(await checkPrintAuth(options, io));
  io.out(formatResult(verdicts));
  return { verdicts, exitCode: verdicts.some((v) => v.status === "FAIL") ? 1 : 0 };
}

/** The command line: parses, runs, returns the exit code. */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: VerifyStoreIo,
): Promise<number> {
  let options: VerifyStoreOptions;
  try {
    options = parseVerifyStoreOptions(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) io.out(`verify-store: ${error.message}`);
    io.out(USAGE);
    return error.message ? 2 : 0;
  }
  return (await runVerifyStore(options, io)).exitCode;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const code = await main(process.argv.slice(2), process.env, { out: (line) => console.log(line) });
  process.exit(code);
}
