/**
 * A loader's or action's arguments as React Router passes them: the request, the route's params,
 * an empty load context, the request's URL and the route's pattern (unknown to a direct call).
 */
export function routeArgs(request: Request, params: Record<string, string | undefined> = {}) {
  return { request, params, context: {}, url: new URL(request.url), pattern: "" };
}
