import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { startDemo } from "../scripts/demo";
import { ROOT } from "../test/setup/database";

// Real browsers only: the Shopify library answers 410 to bots (and to HeadlessChrome's UA).
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });

// With the browser suite, whose run builds the app once (e2e/support/global-setup.ts): under
// `npm test` this one test built it, some 40 s of a fresh clone's suite (ADR 26).
describe("npm run demo, started programmatically", () => {
  it("serves the admin page, loads the app through a real session token, drafts a new order in the app process, and frees its ports when stopped", async () => {
    mkdirSync(join(ROOT, "test/.tmp"), { recursive: true });
    const databasePath = join(ROOT, `test/.tmp/demo-${process.pid}.sqlite`);
    const demo = await startDemo({
      appPort: 0,
      shippingPort: 0,
      shopifyPort: 0,
      orders: 40,
      databasePath,
      log: null,
    });
    const ports = [demo.appUrl, demo.shopifyUrl, demo.shippingUrl].map((u) => Number(new URL(u).port));
    try {
      const admin = await fetch(demo.adminUrl);
      expect(admin.status).toBe(200);
      const html = await admin.text();
      const src = /<iframe[^>]* src="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
      expect(src?.startsWith(`${demo.appUrl}/app?`)).toBe(true);

      // Without id_token the library sends the document to its bounce page, which loads the
      // App Bridge stand-in from the emulator (never Shopify's CDN).
      const withoutToken = new URL(src ?? "");
      withoutToken.searchParams.delete("id_token");
      const bounced = await fetch(withoutToken, { headers: { "User-Agent": BROWSER }, redirect: "manual" });
      expect(bounced.status).toBe(302);
      const bounce = await fetch(new URL(bounced.headers.get("location") ?? "", demo.appUrl), {
        headers: { "User-Agent": BROWSER },
      });
      expect(await bounce.text()).toContain(`${demo.shopifyUrl}/app-bridge.js`);

      // With the admin's fresh id_token: token exchange and Admin GraphQL against the emulator.
      const app = await fetch(src ?? "", { headers: { "User-Agent": BROWSER } });
      expect(app.status).toBe(200);
      expect(app.headers.get("content-security-policy")).toContain(`frame-ancestors ${demo.shopifyUrl}`);
      const page = await app.text();
      expect(page).toContain("Orders awaiting shipment");
      expect(page).toContain("#1001");
      expect(page).toContain("Demo store.");
      expect(page).toContain(`src="${demo.shopifyUrl}/app-bridge.js"`);
      expect(page).not.toContain("cdn.shopify.com");

      // Served as production serves it (issue 25): compressed, hashed assets cached for good, an icon.
      expect(app.headers.get("content-encoding")).toMatch(/^(gzip|br)$/);
      const asset = /(?:href|src)="(\/assets\/[^"]+\.css)"/.exec(page)?.[1];
      const css = await fetch(new URL(asset ?? "/missing", demo.appUrl));
      expect([css.status, css.headers.get("content-encoding"), css.headers.get("cache-control")]).toEqual([
        200,
        expect.stringMatching(/^(gzip|br)$/),
        "public, max-age=31536000, immutable",
      ]);
      expect(page).toContain('rel="icon" href="/favicon.svg"');
      expect((await fetch(new URL("/favicon.svg", demo.appUrl))).status).toBe(200);
      // The page's modules load after its stylesheet on a slow line (module-preload-priority).
      const preloads = page.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
      expect(preloads.length).toBeGreaterThan(3);
      expect(preloads.filter((link) => !link.includes('fetchpriority="low"'))).toEqual([]);

      // The Orders list and an order's label page load no validator: the server parses what they
      // post (zod was 28 KB of the JS before their first paint, issue 25).
      const documentAt = async (path: string) => {
        const url = new URL(src ?? "");
        url.pathname = path;
        return (await fetch(url, { headers: { "User-Agent": BROWSER } })).text();
      };
      const ordersPage = await documentAt("/app/orders");
      const orderPath = /href="(\/app\/orders\/\d+)[?"]/.exec(ordersPage)?.[1];
      expect(orderPath).toBeDefined();
      for (const screen of [ordersPage, await documentAt(orderPath ?? "")]) {
        const modules = [...screen.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)"/g)].map((m) => m[1] ?? "");
        expect(modules.length).toBeGreaterThan(3);
        const code = await Promise.all(modules.map(async (m) => (await fetch(new URL(m, demo.appUrl))).text()));
        expect(code.filter((text) => text.includes("ZodError"))).toEqual([]);
      }

      // One process on SQLite (ADR 19): the app process runs the jobs, and no worker process runs
      // beside it. An order placed in the store reaches the app by webhook and is drafted there.
      expect(demo.webPids).toHaveLength(1);
      expect(demo.workerPids).toEqual(demo.webPids);
      const drafted = async () => {
        const account = await fetch(`${demo.shippingUrl}/__emulator/organizations/org_demo`);
        return ((await account.json()) as { labels_created: number }).labels_created;
      };
      const before = await drafted();
      demo.shopify.createOrder({ kind: "domestic" });
      await expect.poll(drafted, { timeout: 45_000, interval: 250 }).toBe(before + 1);
    } finally {
      await demo.stop();
      for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${databasePath}${suffix}`, { force: true });
    }
    for (const port of ports) expect(await portIsFree(port)).toBe(true);
  }, 180_000);

  it("refuses several processes on SQLite: they need PostgreSQL (ADR 19)", async () => {
    await expect(
      startDemo({ appPort: 0, shippingPort: 0, shopifyPort: 0, webProcesses: 2, log: null }),
    ).rejects.toThrow("Several processes need PostgreSQL");
    await expect(startDemo({ appPort: 0, shippingPort: 0, shopifyPort: 0, workers: 1, log: null })).rejects.toThrow(
      "Several processes need PostgreSQL",
    );
  });
});
