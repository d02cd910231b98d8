// The emulator as a loopback HTTP server (demo, e2e, bench). A plain node:http server keeps the
// hot path lean; the handlers are the same ones `emulator.fetch` runs in-process.

import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

import type { EmulatorConfig } from "./config";
import { createShippingEmulator, getRequestHandler, type ShippingEmulator } from "./emulator";
import type { DeliveryOptions } from "./event-delivery";

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;

/**
 * `SHIPPING_EMULATOR_RETRY_DELAYS=5,10,30` (seconds): a shorter retry schedule for demos, so a
 * failed delivery is retried within a demo's attention span. Unset: the contract's schedule.
 */
export function readDeliveryOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DeliveryOptions {
  const raw = env.SHIPPING_EMULATOR_RETRY_DELAYS;
  if (raw === undefined || raw.trim() === "") return {};
  const seconds = raw.split(",").map((part) => Number(part.trim()));
  if (seconds.some((s) => !Number.isFinite(s) || s < 0))
    throw new Error(`Invalid SHIPPING_EMULATOR_RETRY_DELAYS: ${raw} (comma-separated seconds)`);
  return { retryDelaysMs: seconds.map((s) => s * 1000) };
}

/**
 * `SHIPPING_EMULATOR_VOID_DECISION_SECONDS=20`: the carrier decides voids that soon, so a demo
 * shows the refund arrive. Unset: the config's (15 minutes, as the contract says).
 */
export function readVoidDecisionSecondsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.SHIPPING_EMULATOR_VOID_DECISION_SECONDS;
  if (raw === undefined || raw.trim() === "") return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error(`Invalid SHIPPING_EMULATOR_VOID_DECISION_SECONDS: ${raw} (seconds)`);
  return seconds;
}

export async function startShippingEmulatorServer(options: {
  port?: number;
  host?: string;
  /** An emulator made elsewhere; otherwise one with the default config and `delivery` options. */
  emulator?: ShippingEmulator;
  delivery?: DeliveryOptions;
}): Promise<RunningServer> {
  const emulator =
    options.emulator ??
    createShippingEmulator({
      delivery: options.delivery ?? readDeliveryOptionsFromEnv(),
      voidDecisionSeconds: readVoidDecisionSecondsFromEnv(),
    });
  const handle = getRequestHandler(emulator);
  const host = options.host ?? "127.0.0.1";

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.socket.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      const rawUrl = req.url ?? "/";
      const queryStart = rawUrl.indexOf("?");
      const path = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
      const query = queryStart === -1 ? "" : rawUrl.slice(queryStart + 1);
      const authorization = req.headers.authorization;
      handle({
        method: req.method ?? "GET",
        path,
        query,
        authorization,
        rawBody: chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8"),
        origin: `http://${req.headers.host ?? `${host}:${port}`}`,
      }).then(
        (response) => {
          if (response.drop === true) {
            // Close without any response bytes: the client sees a reset/closed socket.
            req.socket.destroy();
            return;
          }
          res.writeHead(response.status, response.headers);
          res.end(response.body);
        },
        (error: unknown) => {
          // A handler bug: answer 500 rather than hang; the message helps the caller report it.
          res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
          res.end(JSON.stringify({ error: { code: "INTERNAL", message: String(error) } }));
        },
      );
    });
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4010, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function readPortFromArgs(argv: readonly string[]): number {
  const index = argv.indexOf("--port");
  const fromFlag = index === -1 ? undefined : argv[index + 1];
  const inline = argv.find((a) => a.startsWith("--port="))?.slice("--port=".length);
  const raw = fromFlag ?? inline ?? process.env.PORT ?? "4010";
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${raw}`);
  return port;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const port = readPortFromArgs(process.argv.slice(2));
  const host = process.env.HOST ?? "127.0.0.1";
  const configIndex = process.argv.indexOf("--config");
  const configPath = configIndex === -1 ? process.env.SHIPPING_EMULATOR_CONFIG : process.argv[configIndex + 1];
  const config =
    configPath === undefined ? undefined : (JSON.parse(readFileSync(configPath, "utf8")) as EmulatorConfig);
  const running = await startShippingEmulatorServer({
    port,
    host,
    emulator: createShippingEmulator({
      config,
      delivery: readDeliveryOptionsFromEnv(),
      voidDecisionSeconds: readVoidDecisionSecondsFromEnv(),
    }),
  });
  console.log(`Shipping emulator listening on ${running.url} (keys: see emulator/shipping/README.md)`);
  const stop = (): void => {
    void running.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
