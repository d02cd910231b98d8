// A throwaway PostgreSQL cluster on loopback, from the machine's PostgreSQL binaries
// (`apt-get install postgresql`): initdb and pg_ctl into a temporary folder, on a free port, with
// durability off (it is thrown away). As root, the server runs as the \`postgres\` user.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

function findBinary(name) {
  const fromPath = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
  if (fromPath) return fromPath;
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    for (const version of readdirSync(base).sort().reverse()) {
      const candidate = join(base, version, "bin", name);
      if (existsSync(candidate)) return candidate;
    }
  }
  throw new Error(`${name} not found: install PostgreSQL (apt-get install -y postgresql) or set TEST_POSTGRES_URL`);
}

const freePort = () =>
  new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });

/** Starts one; answers its admin URL and how to stop and remove it. */
export async function startThrowawayCluster() {
  const initdb = findBinary("initdb");
  const pgCtl = findBinary("pg_ctl");
  const dir = mkdtempSync(join(tmpdir(), "ship-orders-pg-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const shell = (command, args) => {
    const line = [command, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    return asRoot ? ["su", ["postgres", "-s", "/bin/sh", "-c", line]] : ["sh", ["-c", line]];
  };
  const run = (command, args) => {
    const [file, argv] = shell(command, args);
    execFileSync(file, argv, { stdio: "pipe" });
  };
  run(initdb, ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run(pgCtl, ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "start"]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    // A fast restart (pg_ctl restart -m fast, as an operator's or a failover's): every session is
    // ended, the server comes back on the same port with the same options (postmaster.opts).
    // Asynchronous, so a caller keeps sending while it runs.
    restart: () =>
      new Promise((done, fail) => {
        const [file, argv] = shell(pgCtl, ["-D", data, "-m", "fast", "-l", join(dir, "server.log"), "-w", "restart"]);
        execFile(file, argv, (error) => (error ? fail(error) : done()));
      }),
    stop: () => {
      try {
        run(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
