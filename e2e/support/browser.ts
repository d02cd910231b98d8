import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

import { type Browser, type BrowserContext, chromium, type Frame, type Page } from "playwright-core";
import { expect, onTestFailed } from "vitest";

// What every browser test gets: Debian's Chromium, a page whose console errors and
// off-machine requests fail the test, axe-core on every screen, and screenshots of each screen
// it passes through (git-ignored, under e2e/.artifacts).

const require = createRequire(import.meta.url);
const AXE_SOURCE_PATH = require.resolve("axe-core/axe.min.js");
export const ARTIFACTS_DIR = join(process.cwd(), "e2e/.artifacts");

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-gpu"],
  });
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const LOCAL_PROTOCOLS = new Set(["data:", "blob:", "chrome:", "chrome-extension:", "about:"]);

/**
 * React Router cancels a load that a newer action makes stale (a merchant pressing P while the
 * page re-reads after a purchase, or Get rates while the Returns section loads), and its single
 * fetch logs the cancelled answer's AbortError although it drops the load on purpose and loads
 * again after the action. Only the router aborts without a reason in the browser (the app's own
 * aborts all give one), so that message from React Router's bundle is not an error of the app.
 */
function isSupersededLoad(text: string, url: string): boolean {
  return text.startsWith("AbortError: signal is aborted without reason") && /\/assets\/[\w.-]+\.js$/.test(url);
}

export type GuardedPage = {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught page errors, in any frame. */
  consoleErrors: string[];
  /** Requests to anything but this machine; each is aborted. */
  offMachineRequests: string[];
  /** Screenshots the whole page under e2e/.artifacts/<test>/<n>-<name>.png. */
  screenshot: (name: string) => Promise<string>;
  /**
   * Declares a console error the test provokes on purpose (the browser logs every non-2xx answer,
   * e.g. the 500 of a purchase whose outcome is unknown). assertClean then requires it was seen.
   */
  expectConsoleError: (pattern: RegExp) => void;
  /** Fails the test on console errors (other than expected ones) or off-machine requests seen so far. */
  assertClean: () => void;
  close: () => Promise<void>;
};

export async function openGuardedPage(
  browser: Browser,
  testName: string,
  /** The window's size; default a laptop's (a phone: 390 × 844). */
  viewport: { width: number; height: number } = { width: 1360, height: 900 },
): Promise<GuardedPage> {
  // A desktop Chrome user agent: Shopify's library answers "410 Gone" to bots, and headless
  // Chromium's default agent reads as one.
  const context = await browser.newContext({
    viewport,
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  });
  const consoleErrors: string[] = [];
  const expectedErrors: RegExp[] = [];
  const offMachineRequests: string[] = [];
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    // data:, blob: and the browser's own pages (its PDF viewer loads chrome-extension:// and
    // chrome:// resources) never leave the machine.
    if (LOCAL_PROTOCOLS.has(url.protocol) || LOOPBACK_HOSTS.has(url.hostname)) {
      await route.continue();
      return;
    }
    offMachineRequests.push(route.request().url());
    await route.abort("blockedbyclient");
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() !== "error" || isSupersededLoad(message.text(), message.location().url)) return;
    consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => consoleErrors.push(`uncaught: ${error.message}`));
  const dir = join(ARTIFACTS_DIR, testName.replace(/[^a-z0-9]+/gi, "-").toLowerCase());
  // Only this run's pictures: a failure.png from an earlier run would mislead.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let shots = 0;
  // A failing test leaves a picture of where it stopped, and what the console said.
  onTestFailed(async () => {
    await screenshotWholeApp(page, join(dir, "failure.png")).catch(() => {});
    if (consoleErrors.length > 0) console.error(`console errors in ${testName}:\n${consoleErrors.join("\n")}`);
  });
  return {
    page,
    context,
    consoleErrors,
    offMachineRequests,
    async screenshot(name) {
      shots += 1;
      const path = join(dir, `${String(shots).padStart(2, "0")}-${name}.png`);
      await screenshotWholeApp(page, path);
      return path;
    },
    expectConsoleError(pattern) {
      expectedErrors.push(pattern);
    },
    assertClean() {
      expect(offMachineRequests, "requests that left 127.0.0.1").toEqual([]);
      const unexpected = consoleErrors.filter((e) => !expectedErrors.some((p) => p.test(e)));
      expect(unexpected, "console errors").toEqual([]);
      const unseen = expectedErrors.filter((p) => !consoleErrors.some((e) => p.test(e)));
      expect(unseen.map(String), "expected console errors that never came").toEqual([]);
    },
    close: () => context.close(),
  };
}

/**
 * The app scrolls inside its iframe, so a full-page screenshot of the admin would cut it at the
 * window's height: the window is made as tall as the app's content for the picture, then put back.
 */
async function screenshotWholeApp(page: Page, path: string): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1360, height: 900 };
  const app = page.frames().find((f) => f !== page.mainFrame());
  const iframeTop = await page
    .locator("iframe")
    .first()
    .evaluate((el) => el.getBoundingClientRect().top)
    .catch(() => 0);
  const contentHeight = app ? await app.evaluate(() => document.documentElement.scrollHeight).catch(() => 0) : 0;
  const height = Math.min(8000, Math.max(viewport.height, Math.ceil(iframeTop + contentHeight)));
  if (height !== viewport.height) await page.setViewportSize({ width: viewport.width, height });
  try {
    await page.screenshot({ path, fullPage: true });
  } finally {
    if (height !== viewport.height) await page.setViewportSize(viewport);
  }
}

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[]; html: string }[] };

// Polaris's IndexTable marks its header checkbox `aria-checked="mixed"` while some rows are
// selected; axe wants the native `indeterminate` property alone (which Polaris also sets) on a
// native checkbox. Polaris's markup, not ours: only that node is let through, nothing else.
const isPolarisIndeterminateCheckbox = (violation: AxeViolation, node: { html: string }) =>
  violation.id === "aria-conditional-attr" &&
  node.html.includes("Polaris-Checkbox__Input--indeterminate") &&
  node.html.includes('aria-checked="mixed"');

/** Runs axe-core in the frame; fails on serious or critical violations, naming each. */
export async function assertAccessible(frame: Frame | Page, screen: string): Promise<void> {
  await frame.addScriptTag({ path: AXE_SOURCE_PATH });
  const violations = (await frame.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } })
      .axe;
    const result = await axe.run(document);
    return result.violations;
  })) as AxeViolation[];
  const serious = violations
    // Serious and critical, and the one moderate rule Lighthouse found the app breaking: a page
    // with no main landmark (the admin's is outside the app's frame).
    .filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "landmark-one-main")
    .map((v) => ({ ...v, nodes: v.nodes.filter((n) => !isPolarisIndeterminateCheckbox(v, n)) }))
    .filter((v) => v.nodes.length > 0)
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious, `accessibility of ${screen}`).toEqual([]);
}

/**
 * axe-core on one part of a page (a CSS selector), for a control on a screen this app does not
 * own, such as the emulated admin's top bar, whose other parts are not ours to judge.
 */
export async function assertAccessibleRegion(frame: Frame | Page, selector: string, screen: string): Promise<void> {
  await frame.addScriptTag({ path: AXE_SOURCE_PATH });
  const violations = (await frame.evaluate(async (include) => {
    const axe = (
      globalThis as unknown as {
        axe: { run: (context: { include: string[] }) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run({ include: [include] });
    return result.violations;
  }, selector)) as AxeViolation[];
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ ...v, nodes: v.nodes.filter((n) => !isPolarisIndeterminateCheckbox(v, n)) }))
    .filter((v) => v.nodes.length > 0)
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious, `accessibility of ${screen}`).toEqual([]);
}
