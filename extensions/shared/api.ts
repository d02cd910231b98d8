import type { ExtensionErrorBody } from "../../app/extension-api/contract";

export const NETWORK_MESSAGE = "Couldn't reach the app. Check your connection and try again.";

/** What went wrong, ready to show: the app's own words when it sent an `ExtensionErrorBody`. */
export type ApiFailure = {
  /** HTTP status, or 0 when the request never got an answer. */
  status: number;
  /** The app's error body, when the answer was one. */
  body: ExtensionErrorBody | null;
  message: string;
};

export type ApiResult<T> = { ok: true; data: T } | { ok: false; failure: ApiFailure };

function isErrorBody(value: unknown): value is ExtensionErrorBody {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string";
}

/**
 * Calls one of the app's extension routes with a relative URL (Shopify resolves it against the
 * app's URL and adds the session token). Never throws: a refusal or a lost connection comes back
 * as a failure with a message a merchant can read.
 */
export async function requestJson<T>(
  path: string,
  init?: { method: "GET" | "POST"; body?: unknown },
): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init?.method ?? "GET",
      ...(init?.body === undefined
        ? {}
        : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(init.body) }),
    });
  } catch {
    return { ok: false, failure: { status: 0, body: null, message: NETWORK_MESSAGE } };
  }

  let json: unknown = null;
  try {
    json = await response.json();
  } catch {
    json = null;
  }

  if (response.ok && json !== null) return { ok: true, data: json as T };
  if (isErrorBody(json)) {
    return { ok: false, failure: { status: response.status, body: json, message: json.error.message } };
  }
  const message = response.ok
    ? "The app sent an answer this screen can't read. Try again, or open the app."
    : `The app couldn't do that right now (error ${response.status}). Try again in a moment.`;
  return { ok: false, failure: { status: response.status, body: null, message } };
}

/** "123" for "gid://shopify/Order/123". */
export function legacyIdOf(gid: string): string {
  return gid.slice(gid.lastIndexOf("/") + 1);
}

export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
