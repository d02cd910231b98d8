import { type Frame, type Page } from "playwright-core";
import { inject } from "vitest";

export const demo = () => inject("demo");

/** Puts the store, the shipping service and the app's data back to the demo's seed. */
export async function resetDemo(): Promise<void> {
  const response = await fetch(`${demo().controlUrl}/reset`, { method: "POST" });
  if (response.status !== 204) throw new Error(`demo reset failed: ${response.status} ${await response.text()}`);
}

/** Makes the emulated Shopify fail its next Admin API request. */
export async function failNextShopifyRequest(kind: "THROTTLED" | "SERVICE_UNAVAILABLE"): Promise<void> {
  await fetch(`${demo().controlUrl}/shopify/fail-next/${kind}`, { method: "POST" });
}

/** Sets faults on the emulated shipping service (its own control endpoint). */
export async function setShippingFaults(faults: unknown): Promise<void> {
  const response = await fetch(`${demo().shippingUrl}/__emulator/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(faults),
  });
  if (!response.ok) throw new Error(`setting shipping faults failed: ${response.status} ${await response.text()}`);
}

/** Opens the emulated admin with the app inside and returns the app's frame once it rendered. */
export async function openApp(page: Page, path = "/app"): Promise<Frame> {
  const url = new URL(demo().adminUrl);
  if (path !== "/app") url.searchParams.set("path", path);
  await page.goto(url.toString());
  const handle = await page.waitForSelector("iframe");
  const frame = await handle.contentFrame();
  if (!frame) throw new Error("the admin page has no app frame");
  await frame.waitForLoadState("networkidle");
  return frame;
}
