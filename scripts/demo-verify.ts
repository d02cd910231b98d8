// `node --import tsx scripts/demo-verify.ts [--nav Settings] [screenshot.png]`: starts the demo on
// free ports, opens the admin page in the installed Chromium (playwright-core, /usr/bin/chromium
// or CHROMIUM_PATH), optionally follows a sidebar link (through `shopify:navigate`), and fails if
// any request leaves 127.0.0.1 or the page logs an error. Used to check the demo's "no CDN" rule; the Playwright suite can do the same.

import { chromium } from "playwright-core";

import { startDemo } from "./demo";

const args = process.argv.slice(2);
const navIndex = args.indexOf("--nav");
const navLabel = navIndex === -1 ? undefined : args.splice(navIndex, 2)[1];
const screenshot = args[0];
const demo = await startDemo({ appPort: 0, shippingPort: 0, shopifyPort: 0, log: null });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
});
const problems: string[] = [];
try {
  // The Shopify library answers 410 to bots, and HeadlessChrome's user agent counts as one.
  const context = await browser.newContext({
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  const requests: string[] = [];
  context.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error")
      problems.push(`console error: ${JSON.stringify(message.text())} at ${JSON.stringify(message.location())}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.goto(demo.adminUrl);
  const app = page.frameLocator("#app-iframe");
  await app.getByText("Demo store.").waitFor({ timeout: 20_000 });
  if (navLabel) {
    await page.locator("#app-nav a", { hasText: navLabel }).click();
    await page.waitForURL(new RegExp(`/apps/ship-orders/app/${navLabel.toLowerCase()}`), { timeout: 10_000 });
  }
  await page.waitForLoadState("networkidle");
  if (screenshot) await page.screenshot({ path: screenshot });
  const outside = requests.filter((url) => {
    const { protocol, hostname } = new URL(url);
    return !(protocol === "data:" || protocol === "blob:" || hostname === "127.0.0.1");
  });
  console.log(`${requests.length} requests, ${outside.length} outside 127.0.0.1`);
  for (const url of outside) problems.push(`request outside the machine: ${url}`);
} finally {
  await browser.close();
  await demo.stop();
}
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log("ok: the admin page and the app made no request outside 127.0.0.1");
