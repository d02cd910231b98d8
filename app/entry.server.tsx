import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, ServerRouter } from "react-router";

import db from "./db.server";
import { getEnv } from "./env.server";
import { applyConfiguredHosts } from "./http/document-headers.server";
import { lowerModulePreloadPriority } from "./http/module-preload-priority.server";
import { startWorkerInProcess } from "./jobs/in-process-worker.server";
import { logger } from "./logger.server";
import { addDocumentResponseHeaders } from "./shopify.server";

// Background work (automatic drafts, re-checks, bulk runs, the recovery sweep) runs as jobs. On
// SQLite this process runs them itself: one process, so no two processes share the file (ADR 19).
// On PostgreSQL it only enqueues, and worker processes (`npm run worker`) run them. Loaded once
// with the server build; nothing starts under NODE_ENV=test.
startWorkerInProcess(db);

export const streamTimeout = 5000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  addDocumentResponseHeaders(request, responseHeaders);
  applyConfiguredHosts(responseHeaders, getEnv());
  const userAgent = request.headers.get("user-agent");
  // Bots get the whole document at once; browsers get it streamed as soon as the shell is ready.
  const readyEvent = userAgent && isbot(userAgent) ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      [readyEvent]: () => {
        // Module preloads yield to the stylesheet the first paint waits for (see the module).
        const body = lowerModulePreloadPriority();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // The path only: the query carries the session token (`id_token`) on embedded loads.
        logger.error({ err: error, path: new URL(request.url).pathname }, "rendering the document failed");
      },
    });
    // Abort a little after the stream timeout so rejected promises still reach the client.
    setTimeout(abort, streamTimeout + 1000);
  });
}
