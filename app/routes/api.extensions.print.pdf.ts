import type { LoaderFunctionArgs } from "react-router";

import { buildLabelsPdf } from "~/bulk/label-pdf.server";
import { readOrderIdsParam } from "~/extension-api/input.server";
import { listPrintableLabelsForOrders } from "~/extension-api/print.server";
import { extensionError, handleExtensionRequest } from "~/http/extension-request.server";
import { withQuerySessionToken } from "~/http/query-session-token.server";

// GET /api/extensions/print/pdf?orders=<id>,<id> — the PDF Shopify's print menu shows and prints
// (the print action's `src`): every bought PDF or PNG label of the orders, a page per box, in the
// order of the selection, with packing slips as the shop's setting says. The admin's session token comes as a bearer header, like any extension
// call, or as `?id_token=` when Shopify loads `src` as a plain URL (ADR 12).

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleExtensionRequest(withQuerySessionToken(request), async ({ db, shop }) => {
    const ids = readOrderIdsParam(new URL(request.url), "orders");
    if (!ids.ok) return ids.response;
    const labels = await listPrintableLabelsForOrders({ db, shop }, ids.value);
    const built = await buildLabelsPdf({ db, shop, fetchFile: (url, init) => fetch(url, init) }, labels);
    if (!built.ok) return extensionError(422, "NOTHING_TO_PRINT", built.error.message);
    return new Response(Buffer.from(built.value.bytes), {
      headers: {
        "Content-Type": "application/pdf",
        // Shown in Shopify's print preview, not saved: inline.
        "Content-Disposition": 'inline; filename="shipping-labels.pdf"',
        "X-Labels-Skipped": String(built.value.skipped.length),
        "Cache-Control": "no-store",
        // The URL may carry the session token: no other site is told it.
        "Referrer-Policy": "no-referrer",
      },
    });
  });
