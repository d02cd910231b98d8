// `npm start`: serves the production build (build/, from `npm run build`) on HOST:PORT (default
// all interfaces, 3000) through the app's own server (server/app-server.ts, ADR 24). On SQLite the
// build runs the job worker in this process too (ADR 19); it stops on the same signals.

import { resolve } from "node:path";

import { createBuildServer } from "./app-server";

const root = resolve(import.meta.dirname, "..");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST;

const server = await createBuildServer(root, { mode: "production", origin: `localhost:${port}` });
const listening = () => console.log(`app listening on port ${port}${host ? ` of ${host}` : ""}`);
if (host) server.listen(port, host, listening);
else server.listen(port, listening);

// Stop taking requests, answer those under way. The job worker on SQLite stops on the same signal
// and ends the process once its jobs are handed back (app/jobs/in-process-worker.server.ts).
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close((error) => {
      if (error) console.error(error);
    });
    server.closeIdleConnections();
  });
}
