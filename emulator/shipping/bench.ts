// Bulk label-creation benchmark: the emulator must never be the bottleneck.
// Starts the server as a child process (so its RSS is measured apart from the client), fires
// N creations (default 100,000) over 32 keep-alive connections, and prints throughput, latency
// percentiles and the server's RSS at start, middle, end and peak. Bounded and self-stopping.
//
//   npm run bench:emulator                 # 100,000 requests
//   npm run bench:emulator -- --requests 20000
//   npm run bench:emulator -- --default-heap   # server without --max-semi-space-size=2

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { loadDefaultConfig } from "./config";

const CONCURRENCY = 32;
const WARMUP_REQUESTS = 2_000;
const TARGET_RPS = 2_000;
const HARD_TIMEOUT_MS = 10 * 60_000;

function readRequestCount(argv: readonly string[]): number {
  const index = argv.indexOf("--requests");
  const raw = index === -1 ? argv.find((a) => a.startsWith("--requests="))?.split("=")[1] : argv[index + 1];
  const count = Number(raw ?? "100000");
  if (!Number.isInteger(count) || count < 1) throw new Error(`Invalid --requests: ${String(raw)}`);
  return count;
}

/** Starts the server with a config whose demo allowance covers the whole run. */
async function startServerProcess(): Promise<{ child: ChildProcess; url: string; cleanup: () => void }> {
  const config = loadDefaultConfig();
  const demo = config.organizations.org_demo;
  if (demo === undefined) throw new Error("config.json has no org_demo");
  demo.label_allowance = 1_000_000_000;
  const dir = mkdtempSync(join(tmpdir(), "shipping-bench-"));
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify(config));
  const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
  // A small young generation: by default V8 grows semi-spaces to tens of MB under a steady
  // request stream, so RSS creeps up for a long while although the live heap is flat.
  const nodeFlags = process.argv.includes("--default-heap") ? [] : ["--max-semi-space-size=2"];
  nodeFlags.push("--expose-gc");
  const child = spawn(
    process.execPath,
    [...nodeFlags, "--import", "tsx", serverPath, "--port", "0", "--config", configPath],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 30_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${String(code)}: ${output}`)));
  });
  return { child, url, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function post(agent: Agent, url: URL, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: "POST",
        path,
        headers: {
          authorization: "Bearer sk_live_demo",
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function readServerRss(url: string): Promise<number> {
  return (await readServerStats(url)).rss_bytes;
}

interface ServerStats {
  rss_bytes: number;
  heap_used_bytes: number;
  heap_total_bytes: number;
  external_bytes: number;
  labels_stored: number;
}

async function readServerStats(url: string, collectGarbage = false): Promise<ServerStats> {
  const res = await fetch(`${url}/__emulator/stats${collectGarbage ? "?gc=1" : ""}`);
  return (await res.json()) as ServerStats;
}

function makeBody(i: number): string {
  return JSON.stringify({
    from_address: {
      name: "Bench Shipper",
      street1: "1600 Amphitheatre Pkwy",
      city: "Mountain View",
      state: "CA",
      zip: "94043",
    },
    to_address: {
      name: `Buyer ${i}`,
      street1: "500 W 56th St",
      street2: "Apt 2B",
      city: "New York",
      state: "NY",
      zip: "10019",
    },
    parcel: { weight: 24, length: 10, width: 8, height: 4 },
    carrier: "USPS",
    service: "Priority Mail",
    reference: `#${i}`,
    platform: "shopify",
    platform_order_id: String(5_000_000_000 + i),
  });
}

async function runLoad(
  agent: Agent,
  url: URL,
  count: number,
  latencies: Float64Array | null,
  onProgress: (done: number) => void,
): Promise<{ failures: number }> {
  let next = 0;
  let done = 0;
  let failures = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const started = performance.now();
      const status = await post(agent, url, "/v1/labels", makeBody(i));
      if (latencies !== null) latencies[i] = performance.now() - started;
      if (status !== 201) failures++;
      done++;
      onProgress(done);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
  return { failures };
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const count = readRequestCount(process.argv.slice(2));
  const hardStop = setTimeout(() => {
    console.error("bench: hard timeout reached, stopping");
    process.exit(2);
  }, HARD_TIMEOUT_MS);
  const server = await startServerProcess();
  const url = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    console.log(
      `Shipping emulator bench: ${count} label creations, ${CONCURRENCY} keep-alive connections, ${server.url}`,
    );
    await runLoad(agent, url, WARMUP_REQUESTS, null, () => undefined);
    const rssStart = await readServerRss(server.url);
    const liveStart = (await readServerStats(server.url, true)).heap_used_bytes;
    let liveMiddle = 0;
    let rssPeak = rssStart;
    let rssMiddle = 0;
    let middlePending = true;
    // RSS at every tenth of the run: flat memory shows as a plateau once the label cap is hit.
    const tenths: string[] = [];
    let nextTenth = 1;
    const sampler = setInterval(() => {
      void readServerRss(server.url).then((rss) => {
        rssPeak = Math.max(rssPeak, rss);
      });
    }, 200);
    const latencies = new Float64Array(count);
    const started = performance.now();
    const { failures } = await runLoad(agent, url, count, latencies, (done) => {
      if (done >= (nextTenth * count) / 10) {
        const label = `${nextTenth * 10}%`;
        nextTenth++;
        void readServerRss(server.url).then((rss) => {
          tenths.push(`${label} ${mb(rss)}`);
          rssPeak = Math.max(rssPeak, rss);
        });
      }
      if (middlePending && done >= count / 2) {
        middlePending = false;
        void readServerStats(server.url, true).then((stats) => {
          liveMiddle = stats.heap_used_bytes;
        });
        void readServerRss(server.url).then((rss) => {
          rssMiddle = rss;
          rssPeak = Math.max(rssPeak, rss);
        });
      }
    });
    const elapsedMs = performance.now() - started;
    clearInterval(sampler);
    const endStats = await readServerStats(server.url);
    const rssEnd = endStats.rss_bytes;
    const liveEnd = (await readServerStats(server.url, true)).heap_used_bytes;
    rssPeak = Math.max(rssPeak, rssEnd);
    latencies.sort();
    const rps = count / (elapsedMs / 1000);
    console.log(`requests:        ${count} (${failures} not 201)`);
    console.log(`duration:        ${(elapsedMs / 1000).toFixed(2)} s`);
    console.log(
      `requests/second: ${rps.toFixed(0)} (target >= ${TARGET_RPS}: ${rps >= TARGET_RPS ? "met" : "NOT MET"})`,
    );
    console.log(`latency p50:     ${percentile(latencies, 50).toFixed(2)} ms`);
    console.log(`latency p99:     ${percentile(latencies, 99).toFixed(2)} ms`);
    console.log(
      `server RSS:      start ${mb(rssStart)}, middle ${mb(rssMiddle)}, end ${mb(rssEnd)}, peak ${mb(rssPeak)}`,
    );
    console.log(`RSS by progress: ${tenths.join(", ")}`);
    console.log(
      `server heap:     ${mb(endStats.heap_used_bytes)} used / ${mb(endStats.heap_total_bytes)} reserved at end (before GC), external ${mb(endStats.external_bytes)}`,
    );
    console.log(
      `live heap (GC):  start ${mb(liveStart)}, middle ${mb(liveMiddle)}, end ${mb(liveEnd)}; ${endStats.labels_stored} labels stored (cap ${loadDefaultConfig().limits.max_stored_labels})`,
    );
    if (failures > 0) process.exitCode = 1;
  } finally {
    agent.destroy();
    server.child.kill("SIGTERM");
    server.cleanup();
    clearTimeout(hardStop);
  }
}

await main();
