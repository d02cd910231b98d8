import { SessionNotFoundError } from "@shopify/shopify-app-react-router/server";

import {
  isTransientLabelError,
  isTransientShippingError,
  isTransientShopifyError,
  type LabelError,
} from "~/labels/label-errors";
import { type JobOutcome, PermanentJobError } from "~/queue/job-queue";
import type { ShippingError } from "~/shipping/errors";
import type { ShopifyError } from "~/shopify/admin-client";
import { type AppError, isAppError } from "~/utils/app-error";
import { describeThrown, httpStatusOf } from "~/utils/thrown";

// The one mapping from how a job's attempt failed to what becomes of the job (issue 22, item 6).
// Handlers end an attempt by throwing: a typed failure of a use case (`JobFailedError`, carrying
// the AppError), the shop's missing session (`ShopUninstalledError`), a wait for something still
// on its way (`NotYetJobError`), or whatever a library threw. The worker loop
// (job-worker.server.ts) asks `jobOutcomeOf` about every one of them, for every job, on both
// adapters:
//
//   retry    transient (Shopify or the service down, throttled, a network blip, an answer lost,
//            anything unknown): the attempt fails and the job runs again after its backoff,
//            until its attempts are used up
//   dead     retrying cannot help (the merchant must fix data or settings, Shopify refused, a
//            broken payload): dead at once, with its error, on the Activity screen
//   dropped  the shop has no offline session (uninstalled): nothing to do and nobody to show
//            it to; the job ends without error (a reinstall sends its own webhooks)

/** A use case's typed failure ending a job's attempt; the outcome follows from the error itself. */
export class JobFailedError extends Error {
  override name = "JobFailedError";
  constructor(readonly failure: AppError) {
    super(`${failure.source}/${failure.code}: ${failure.logMessage}`);
  }
}

/** The app has no offline session for the job's shop: it was uninstalled. */
export class ShopUninstalledError extends Error {
  override name = "ShopUninstalledError";
  constructor(readonly shop: string) {
    super(`no offline session for ${shop}: the app is not installed`);
  }
}

/** What the job needs is still on its way (an event that comes first, a fulfillment not made yet): try again later. */
export class NotYetJobError extends Error {
  override name = "NotYetJobError";
}

function isTransient(error: AppError): boolean {
  switch (error.source) {
    case "labels":
      return isTransientLabelError(error as LabelError);
    case "shopify":
      return isTransientShopifyError(error as ShopifyError);
    case "shipping":
      return isTransientShippingError(error as ShippingError);
    case "settings":
      // A missing or refused key, a bad address: the merchant fixes the settings first.
      return false;
  }
}

/** What becomes of a job whose attempt ended with `thrown`. */
export function jobOutcomeOf(thrown: unknown): JobOutcome {
  const reason = describeThrown(thrown);
  if (thrown instanceof ShopUninstalledError || thrown instanceof SessionNotFoundError) {
    return { kind: "dropped", reason };
  }
  if (thrown instanceof PermanentJobError) return { kind: "dead", reason };
  if (thrown instanceof NotYetJobError) return { kind: "retry", reason };
  const failure = thrown instanceof JobFailedError ? thrown.failure : isAppError(thrown) ? thrown : null;
  if (failure) {
    const line = `${failure.source}/${failure.code}: ${failure.logMessage}`;
    return { kind: isTransient(failure) ? "retry" : "dead", reason: line };
  }
  // Shopify's or a client library's HTTP failure: a refusal (4xx) stays one; 408, 429 and 5xx pass.
  const status = httpStatusOf(thrown);
  if (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return { kind: "dead", reason: `${reason} (HTTP ${status})` };
  }
  // Anything else (a network error, the database busy, a bug) is retried: attempts are bounded,
  // and a dead job after them says what kept failing.
  return { kind: "retry", reason };
}
