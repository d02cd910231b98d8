import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import type { VerifyStoreOptions } from "./options";
import { readSessionToken } from "./session-token";
import { type Verdict, verdict } from "./verdict";

// ADR 12 assumes Shopify fetches the print action's `src` with the admin's session token
// (`Authorization: Bearer`), like an extension's own fetch; the PDF route answers 401 without
// one. Nothing outside Shopify's admin can show that, so a human clicks Print while a small
// listener records the request's headers. With an upstream it sits in front of the app (the
// tunnel points at the listener, the listener forwards everything to the app), so the print
// still works; without one it answers the PDF request itself.

const CHECK = "print-auth";
/** The print action's `src` (app/routes/api.extensions.print.pdf.ts). */
export const PRINT_PATH = "/api/extensions/print/pdf";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "content-encoding",
]);

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

export interface PrintListener {
  readonly url: string;
  /** Resolves with the verdict on the first print request, or after the wait. */
  readonly verdict: Promise<Verdict>;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

const firstHeader = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Judges one recorded GET of the print path. */
export function judgePrintRequest(
  request: RecordedRequest,
  context: { shop: string; apiSecret: string | null; preflightAskedForAuthorization: boolean },
): Verdict {
  const url = new URL(request.path, "http://listener.invalid");
  const authorization = firstHeader(request.headers.authorization) ?? "";
  const seen = [
    `${request.method} ${url.pathname}${url.search ? "?…" : ""}`,
    `Sec-Fetch-Dest: ${firstHeader(request.headers["sec-fetch-dest"]) ?? "(none)"}, Origin: ${firstHeader(request.headers.origin) ?? "(none)"}`,
    ...(context.preflightAskedForAuthorization ? ["A CORS preflight asked to send Authorization first."] : []),
  ];
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  if (!bearer) {
    const alternatives = [
      url.searchParams.has("id_token") ? "an id_token query parameter" : null,
      request.headers.cookie ? "cookies" : null,
      authorization ? `Authorization: ${authorization.split(/\s/)[0] ?? ""} …` : null,
    ].filter(Boolean);
    return verdict(CHECK, "FAIL", "Shopify fetched the print src without Authorization: Bearer.", [
      ...seen,
      `It carried ${alternatives.length ? alternatives.join(" and ") : "no credential at all"}.`,
      "The PDF route answers 401 to this (ADR 12): make pdfPath a short-lived signed URL, or accept what it carried.",
    ]);
  }
  const read = readSessionToken(bearer, context.apiSecret ?? undefined);
  if (!read.ok) {
    return verdict(CHECK, "FAIL", `Shopify sent a bearer token that is not a session token (${read.reason}).`, seen);
  }
  if (read.signatureMatches === false || read.claims.dest !== `https://${context.shop}`) {
    return verdict(CHECK, "FAIL", "Shopify sent a bearer token the app would refuse.", [
      ...seen,
      ...(read.signatureMatches === false ? ["It is not signed with this app's secret."] : []),
      `It names ${read.claims.dest ?? "no store"}, expected https://${context.shop}.`,
    ]);
  }
  return verdict(CHECK, "PASS", "Shopify fetched the print src with Authorization: Bearer <session token>.", [
    ...seen,
    `The token names https://${context.shop}, user ${read.claims.sub ?? "(none)"}` +
      (read.signatureMatches === null
        ? "; its signature was not checked (no SHOPIFY_API_SECRET)."
        : ", signed with the app's secret."),
    "ADR 12's inference holds: the PDF route's bearer check is right. Update ADR 12's wording to 'confirmed'.",
  ]);
}

/** What a human does while the listener waits; also the verdict when no listener runs. */
export function printInstructions(listenerUrl: string | null, upstream: string | null): string[] {
  return [
    ...(listenerUrl
      ? upstream
        ? [`Point the app's tunnel at ${listenerUrl} (it forwards to ${upstream}).`]
        : [`Make the app's URL reach ${listenerUrl} (e.g. a tunnel to it); it answers the print request itself.`]
      : []),
    "In the store admin, open an order whose label the app bought as a PDF.",
    "Click Print → Shipping label, then Print in the dialog.",
    ...(listenerUrl
      ? []
      : [
          "A label in the preview means the src request carried a bearer token (the route answers 401 otherwise);",
          `in the app's log, a 401 on GET ${PRINT_PATH} means it did not. Or run with --print-listen 0.`,
        ]),
  ];
}

async function forward(upstream: string, req: IncomingMessage, body: Buffer, res: ServerResponse) {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(key) || value === undefined) continue;
    headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = req.method ?? "GET";
  const answer = await fetch(`${upstream}${req.url ?? "/"}`, {
    method,
    headers,
    redirect: "manual",
    ...(body.length && method !== "GET" && method !== "HEAD" ? { body: new Uint8Array(body) } : {}),
  });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, key) => {
    if (!HOP_BY_HOP.has(key)) out[key] = value;
  });
  res.writeHead(answer.status, out);
  res.end(Buffer.from(await answer.arrayBuffer()));
}

// A one-page PDF saying the request was recorded, for when no app sits behind the listener.
const RECORDED_PDF = Buffer.from(
  [
    "%PDF-1.4",
    "1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj",
    "2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj",
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 288 432]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj",
    "4 0 obj<</Length 58>>stream",
    "BT /F1 12 Tf 24 400 Td (verify-store: request recorded) Tj ET",
    "endstream endobj",
    "5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj",
    "trailer<</Root 1 0 R>>",
    "%%EOF",
  ].join("\n"),
);

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
};

/** Starts the recording listener; the verdict settles on the first print request or the wait. */
export async function startPrintListener(options: VerifyStoreOptions): Promise<PrintListener> {
  const { listenPort, listenHost, upstream, waitSeconds } = options.printAuth;
  const requests: RecordedRequest[] = [];
  let preflightAskedForAuthorization = false;
  let settle: (v: Verdict) => void = () => undefined;
  const settled = new Promise<Verdict>((resolve) => (settle = resolve));

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      const method = req.method ?? "GET";
      const recorded = { method, path, headers: req.headers };
      requests.push(recorded);
      const isPrint = new URL(path, "http://listener.invalid").pathname === PRINT_PATH;
      if (isPrint && method === "OPTIONS") {
        const asked = firstHeader(req.headers["access-control-request-headers"]) ?? "";
        if (/authorization/i.test(asked)) preflightAskedForAuthorization = true;
      }
      if (isPrint && method === "GET") {
        const judged = judgePrintRequest(recorded, {
          shop: options.shop,
          apiSecret: options.apiSecret,
          preflightAskedForAuthorization,
        });
        // Settled once the answer is out, so closing the listener never cuts the print short.
        res.once("close", () => settle(judged));
      }
      const body = Buffer.concat(chunks);
      if (upstream) {
        forward(upstream, req, body, res).catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
          res.end(`verify-store listener: the app at ${upstream} did not answer (${String(error)})`);
        });
      } else if (isPrint && method === "OPTIONS") {
        res.writeHead(204, CORS).end();
      } else if (isPrint && method === "GET") {
        res
          .writeHead(200, { ...CORS, "Content-Type": "application/pdf", "Cache-Control": "no-store" })
          .end(RECORDED_PDF);
      } else {
        res
          .writeHead(404, { "Content-Type": "text/plain" })
          .end("verify-store listener: only the print src is answered");
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listenPort ?? 0, listenHost, () => resolve());
  });
  const url = `http://${listenHost}:${(server.address() as AddressInfo).port}`;
  const timer = setTimeout(() => {
    settle(
      verdict(CHECK, "NEEDS-HUMAN", `No print request reached ${url} in ${waitSeconds} s.`, [
        `${requests.length} other request(s) arrived.`,
        ...printInstructions(url, upstream),
      ]),
    );
  }, waitSeconds * 1000);
  return {
    url,
    requests,
    verdict: settled.finally(() => clearTimeout(timer)),
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
