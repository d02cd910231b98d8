import { createServer, type Server } from "node:http";

import { createShopifyAdminEmulator, type ShopifyAdminEmulator, type ShopifyAdminEmulatorOptions } from "./emulator";

// The same handlers as the in-process emulator, on a loopback port for the demo and e2e.
// Requests keep Shopify's path (/admin/api/2026-10/graphql.json); the Host header need not be
// the shop domain, since a loopback server can't be reached under it.
export async function startShopifyAdminEmulatorServer(
  options: { port?: number; host?: string } & ShopifyAdminEmulatorOptions = {},
): Promise<{ url: string; emulator: ShopifyAdminEmulator; server: Server; close: () => Promise<void> }> {
  const host = options.host ?? "127.0.0.1";
  const emulator = createShopifyAdminEmulator(options);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        if (req.method === "POST" && req.url === "/__emulator/reset") {
          emulator.reset();
          res.writeHead(204).end();
          return;
        }
        const headers = new Headers();
        for (const [key, value] of Object.entries(req.headers)) {
          if (typeof value === "string") headers.set(key, value);
        }
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const response = await emulator.fetch(`https://${emulator.shop}${req.url ?? "/"}`, {
          method: req.method ?? "GET",
          headers,
          ...(body && req.method !== "GET" && req.method !== "HEAD" ? { body } : {}),
        });
        res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((error: unknown) => {
        res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ errors: `emulator failure: ${String(error)}` }));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}`,
    emulator,
    server,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

// `tsx emulator/shopify/server.ts` runs it standalone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.SHOPIFY_EMULATOR_PORT ?? 4545);
  void startShopifyAdminEmulatorServer({ port }).then(({ url, emulator }) => {
    console.log(`Shopify Admin emulator for ${emulator.shop} at ${url}/admin/api/2026-10/graphql.json`);
  });
}
