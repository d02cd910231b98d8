// The app's HTTP server: `npm start` (server/start.ts) and the demo's web processes
// (scripts/demo-app-server.ts) both serve the production build through it, so the demo is served
// and measured as production is (ADR 24). A small node:http server, no framework:
// - static files from build/client (hashed assets cached for a year, the rest for an hour);
// - Shopify's webhooks (POST to a `webhooks/*` route without parameters) straight to their route's
//   action, without React Router's request handler;
// - everything else to React Router's request handler;
// each compressed as react-router-serve compresses it (the same `compression` middleware), webhooks
// excepted: Shopify reads only their status.
//
// Why webhooks skip React Router: it flattens and ranks the app's 51 routes on every request (twice
// for a resource route), and turning node's request into a web Request through streams costs as
// much again; together about a third of a web process's CPU a delivery. On a flash sale Shopify
// sends hundreds a second, each to be answered within 5 s (bench:webhooks: 500 a second on two
// cores). The action is the route's own: `shopify app dev` (Vite) and the route tests reach the
// same code through React Router.

import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { extname, join, normalize } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";

import compression from "compression";
import { type ActionFunction, createRequestHandler, type ServerBuild } from "react-router";

import { logger } from "../app/logger.server";
import { purposeOfRequest, runWithAccessContext } from "../app/utils/access-context.server";

export type AppServerOptions = {
  readonly build: ServerBuild;
  /** build/client: the browser's assets. */
  readonly clientDir: string;
  readonly mode: "production" | "development";
  /** The host requests name when they carry no Host header. */
  readonly origin: string;
};

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".map": "application/json",
};

// A webhook's body is a few kilobytes; Shopify's largest payloads stay far below this.
const MAX_WEBHOOK_BODY_BYTES = 5 * 1024 * 1024;

function serveStatic(clientDir: string, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
  } catch {
    return false; // a malformed escape: React Router answers it
  }
  if (pathname === "/") return false;
  const file = normalize(join(clientDir, pathname));
  if (!file.startsWith(clientDir) || !existsSync(file) || !statSync(file).isFile()) return false;
  res.writeHead(200, {
    "Content-Type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
    "Cache-Control": pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
  });
  if (req.method === "HEAD") res.end();
  else createReadStream(file).pipe(res);
  return true;
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  return headers;
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? origin}`);
  const controller = new AbortController();
  req.socket.once("close", () => controller.abort());
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers: headersOf(req),
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    res.write(chunk);
    // A streamed page (deferred data) reaches the browser chunk by chunk, not when gzip's buffer fills.
    (res as ServerResponse & { flush?: () => void }).flush?.();
  }
  res.end();
}

/**
 * Each webhook route's action by its path ("/webhooks/orders"): the routes without parameters,
 * directly under the root (a nested route's `path` is relative to its parent's).
 */
export function collectWebhookActions(build: ServerBuild): Map<string, ActionFunction> {
  const actions = new Map<string, ActionFunction>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const path = route.path ?? "";
    const direct = route.parentId === "root" && path.startsWith("webhooks/") && !/[:*]/.test(path);
    if (direct && route.module.action) {
      actions.set(`/${path}`, route.module.action);
    }
  }
  return actions;
}

/** Reads the whole body, or null when it is larger than `limit`. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

// What React Router does with a resource route's outcome: a Response (returned or thrown) is the answer;
// anything else thrown is logged and a 500 Shopify retries.
async function runWebhookAction(action: ActionFunction, request: Request): Promise<Response> {
  try {
    const url = new URL(request.url);
    const result: unknown = await action({ request, params: {}, context: {}, url, pattern: url.pathname });
    if (result instanceof Response) return result;
    return Response.json(result ?? null);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    logger.error({ err: thrown, path: new URL(request.url).pathname }, "webhook action failed");
    return new Response("Unexpected Server Error", { status: 500 });
  }
}

async function answerWebhook(
  action: ActionFunction,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): Promise<void> {
  const body = await readBody(req, MAX_WEBHOOK_BODY_BYTES);
  if (!body) {
    res.writeHead(413, { Connection: "close" }).end();
    return;
  }
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? origin}`);
  const request = new Request(url, { method: "POST", headers: headersOf(req), body: new Uint8Array(body) });
  // Who reads personal data for a webhook: the sender (Shopify, or the shipping service) asked.
  const context = { actor: "webhook", purpose: purposeOfRequest("POST", url.href) };
  await writeResponse(res, await runWithAccessContext(context, () => runWebhookAction(action, request)));
}

function failed(res: ServerResponse, error: unknown): void {
  logger.error({ err: error }, "request failed");
  if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
  res.end("Internal Server Error");
}

export function createAppServer(options: AppServerOptions): Server {
  const handle = createRequestHandler(options.build, options.mode);
  const webhookActions = collectWebhookActions(options.build);
  const compress = compression();
  return createServer((req, res) => {
    const webhookAction =
      req.method === "POST" ? webhookActions.get((req.url ?? "").split("?", 1)[0] ?? "") : undefined;
    if (webhookAction) {
      answerWebhook(webhookAction, req, res, options.origin).catch((error: unknown) => failed(res, error));
      return;
    }
    compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => {
      if (serveStatic(options.clientDir, req, res)) return;
      const request = toRequest(req, options.origin);
      // Named once the session token is verified (shop-context.server.ts); the access log reads it.
      const context = { actor: "unauthenticated", purpose: purposeOfRequest(request.method, request.url) };
      runWithAccessContext(context, () => handle(request))
        .then((response) => writeResponse(res, response))
        .catch((error: unknown) => failed(res, error));
    });
  });
}

/** The app server over the production build in `root` (build/server and build/client). */
export async function createBuildServer(
  root: string,
  options: Pick<AppServerOptions, "mode" | "origin">,
): Promise<Server> {
  const build = (await import(pathToFileURL(join(root, "build/server/index.js")).href)) as ServerBuild;
  return createAppServer({ ...options, build, clientDir: join(root, "build/client") });
}
