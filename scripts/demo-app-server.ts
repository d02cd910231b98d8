// Serves the app's production build (build/, from `remix vite:build`, the same command as
// `npm run build`) on loopback for the demo, with Remix in development mode. scripts/demo.ts
// starts it as a child process with `--import tsx --import ./scripts/demo-fetch-routing.ts`. On
// SQLite the build runs the job worker in this process too (ADR 19).
//
// Why a build and not `remix vite:dev`: the Vite config points HMR at wss://<app host>:443 for
// tunnels, which a loopback demo cannot serve, and Vite's on-demand dependency optimisation
// reloads pages mid-test. A build starts in a second and behaves the same on every run.
//
// A small node:http adapter (no Express): static files from build/client, everything else to
// Remix's request handler, both compressed as `npm start` (remix-serve) compresses them, with the
// same `compression` middleware: the demo is measured as production serves. HOST and PORT say
// where to listen.

import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { extname, join, normalize, resolve } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";

import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";

import { stopWithDemoParent } from "./demo-parent";

const root = resolve(import.meta.dirname, "..");
const clientDir = join(root, "build/client");
const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 3000);

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

function serveStatic(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
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

function toRequest(req: IncomingMessage): Request {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? `${host}:${port}`}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else if (value !== undefined) headers.set(key, value);
  }
  const controller = new AbortController();
  req.socket.once("close", () => controller.abort());
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
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

const build = (await import(pathToFileURL(join(root, "build/server/index.js")).href)) as ServerBuild;
const handle = createRequestHandler(build, "development");

const compress = compression();

const server = createServer((req, res) => {
  compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => respond(req, res));
});

function respond(req: IncomingMessage, res: ServerResponse) {
  if (serveStatic(req, res)) return;
  handle(toRequest(req))
    .then((response) => writeResponse(res, response))
    .catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal Server Error");
    });
}
server.listen(port, host, () => console.log(`app listening on http://${host}:${port}`));

// On SQLite the build started the job worker in this process (app/jobs/in-process-worker.server.ts),
// and the same signal stops it: exit once it has handed its jobs back. scripts/demo.ts kills what
// is still running after 5 s; leases cover that.
const stop = () => {
  server.closeAllConnections();
  const closed = new Promise<void>((done) => server.close(() => done()));
  void Promise.all([closed, globalThis.jobWorkerInProcess?.stopped]).then(() => process.exit(0));
  setTimeout(() => process.exit(0), 4000).unref();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
stopWithDemoParent(stop);
