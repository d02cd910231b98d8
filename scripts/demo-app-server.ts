// Serves the app's production build (build/, from `react-router build`, the same command as
// `npm run build`) on loopback for the demo, with React Router in development mode. scripts/demo.ts
// starts it as a child process with `--import tsx --import ./scripts/demo-fetch-routing.ts`. On
// SQLite the build runs the job worker in this process too (ADR 19).
//
// Why a build and not `react-router dev`: the Vite config points HMR at wss://<app host>:443 for
// tunnels, which a loopback demo cannot serve, and Vite's on-demand dependency optimisation
// reloads pages mid-test. A build starts in a second and behaves the same on every run.
//
// The app's own server (server/app-server.ts), as `npm start` serves it, in development mode.
// HOST and PORT say where to listen.

import { resolve } from "node:path";

import { createBuildServer } from "../server/app-server";
import { stopWithDemoParent } from "./demo-parent";

const root = resolve(import.meta.dirname, "..");
const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 3000);

const server = await createBuildServer(root, { mode: "development", origin: `${host}:${port}` });
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
