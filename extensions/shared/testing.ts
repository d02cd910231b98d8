// Test helpers for the extensions' tests (never imported by extension code, so never bundled).
import { render } from "preact";
import { afterEach, beforeEach, expect, vi } from "vitest";

/**
 * Unmounts what the extension rendered. Call before the tester's tearDown(): its own unmount
 * `require`s the CommonJS build of preact, a different copy from the one the extension rendered
 * with, so without this the next test's render would reuse this test's component and its state.
 */
export function unmountExtension() {
  render(null, document.body);
}

export type SentRequest = { method: string; path: string; search: URLSearchParams; body: unknown };
type Handler = (request: SentRequest) => Response | Promise<Response>;

/**
 * A fetch that answers per "METHOD /path" and records every request it was sent. A request no
 * route expects is recorded in `unexpected` and fails like a lost connection.
 */
export function routeFetch(routes: Record<string, Handler>) {
  const requests: SentRequest[] = [];
  const unexpected: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const raw = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(raw, "https://app.example");
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    const request = { method, path: url.pathname, search: url.searchParams, body };
    requests.push(request);
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) {
      unexpected.push(`${method} ${raw}`);
      throw new TypeError("Failed to fetch");
    }
    return handler(request);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests, unexpected };
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** A promise the test resolves when it wants, e.g. to hold a request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export function query<T extends Element = Element>(selector: string): T {
  const element = document.body.querySelector<T>(selector);
  if (!element) throw new Error(`Nothing matches ${selector} in:\n${document.body.innerHTML}`);
  return element;
}

/** The text a merchant sees, in order: each element's `heading` (banners, sections) before its content. */
export function screenText(): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? "");
    if (node instanceof Element && node.hasAttribute("heading")) parts.push(` ${node.getAttribute("heading")} `);
    node.childNodes.forEach(walk);
  };
  walk(document.body);
  return parts.join("").replace(/\s+/g, " ");
}

/** What the tests need of the tester's extension harness (any target). */
type Harness = {
  setUp(): void;
  tearDown(): void;
  fetch: typeof globalThis.fetch;
  shopify: { data: unknown };
};

/**
 * Every extension test's life: set up with these orders selected, and after the test unmount,
 * tear down and fail on any request no route expected. `serve` answers the test's routes.
 */
export function harnessExtension(extension: Harness, selectedIds: readonly string[]) {
  let unexpected: string[] = [];
  beforeEach(() => {
    extension.setUp();
    extension.shopify.data = { selected: selectedIds.map((id) => ({ id })) };
    unexpected = [];
  });
  afterEach(() => {
    unmountExtension();
    extension.tearDown();
    expect(unexpected, "requests no test route expected").toEqual([]);
  });
  return {
    serve(routes: Record<string, Handler>) {
      const mock = routeFetch(routes);
      extension.fetch = mock.fetch;
      unexpected = mock.unexpected;
      return mock;
    },
  };
}
