// Loaded with `node --import` into the demo's app process only (scripts/demo.ts starts it so);
// production never loads it. Like Epic Stack's MOCKS mode, it routes the app's outgoing calls
// to the demo shop's host (https://demo-shop.myshopify.com/…: token exchange, Admin GraphQL) to
// the Shopify emulator on loopback. It must run before the app's modules: the Shopify library's
// Node adapter captures `globalThis.fetch` when it is imported. Every other host is untouched.
//
//   DEMO_ROUTE_SHOP                  the shop's host, e.g. demo-shop.myshopify.com
//   DEMO_ROUTE_SHOPIFY_EMULATOR_URL  where it goes, e.g. http://127.0.0.1:4545
//   DEMO_ROUTE_SHOPS                 more shops, each with an emulator of its own (bench:fairness):
//                                    JSON {"other-1.myshopify.com": "http://127.0.0.1:4601", …}

type Fetch = typeof globalThis.fetch;

/** A fetch that sends requests for `shopHost` (any scheme) to `targetOrigin`, path and query kept. */
export function routeShopFetch(fetchImpl: Fetch, shopHost: string, targetOrigin: string): Fetch {
  return routeShopsFetch(fetchImpl, { [shopHost]: targetOrigin });
}

/** The same for several shops: each host in `routes` goes to its origin. */
export function routeShopsFetch(fetchImpl: Fetch, routes: Readonly<Record<string, string>>): Fetch {
  const targets = new Map(Object.entries(routes).map(([host, origin]) => [host, new URL(origin)]));
  const routed: Fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const target = targets.get(url.hostname);
    if (!target) return fetchImpl(input, init);
    const rewritten = new URL(`${url.pathname}${url.search}`, target);
    if (input instanceof Request) {
      const body = input.body ? await input.arrayBuffer() : undefined;
      return fetchImpl(
        new Request(rewritten, {
          method: input.method,
          headers: input.headers,
          ...(body ? { body } : {}),
          redirect: input.redirect,
          signal: input.signal,
        }),
        init,
      );
    }
    return fetchImpl(rewritten, init);
  };
  return routed;
}

export function installShopFetchRouting(env: Record<string, string | undefined> = process.env): boolean {
  const shop = env.DEMO_ROUTE_SHOP;
  const target = env.DEMO_ROUTE_SHOPIFY_EMULATOR_URL;
  if (!shop || !target) return false;
  if (env.NODE_ENV === "production") {
    throw new Error("demo-fetch-routing: refused with NODE_ENV=production (the demo runs against emulators only)");
  }
  const more = env.DEMO_ROUTE_SHOPS ? (JSON.parse(env.DEMO_ROUTE_SHOPS) as Record<string, string>) : {};
  globalThis.fetch = routeShopsFetch(globalThis.fetch.bind(globalThis), { ...more, [shop]: target });
  return true;
}

installShopFetchRouting();
