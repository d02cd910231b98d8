import { routeArgs } from "./route-args";
import { createAdminRequest, type SessionTokenOptions } from "./shopify-requests";

/**
 * A form post as a React Router `<Form method="post">` or `fetcher.submit` sends it from the embedded
 * admin: urlencoded body, the session token as a Bearer header.
 */
export function createAdminFormRequest(
  path: string,
  fields: Record<string, string>,
  options: SessionTokenOptions & { token?: string | null } = {},
): Request {
  const base = createAdminRequest(path, options);
  const headers = new Headers(base.headers);
  headers.set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8");
  return new Request(base.url, { method: "POST", headers, body: new URLSearchParams(fields).toString() });
}

/** Calls a loader or action as React Router would, returning a thrown Response (redirect, 401) instead of throwing it. */
export async function callRoute<T>(
  handler: (args: never) => Promise<T>,
  request: Request,
  params: Record<string, string> = {},
): Promise<T | Response> {
  try {
    return await handler(routeArgs(request, params) as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
