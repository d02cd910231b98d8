import type { LoaderFunctionArgs } from "@remix-run/node";

import { buildMergedPdf } from "~/bulk/label-print.server";
import { listPrintableLabelsForOrders } from "~/http/extension-api.server";
import { readOrderIdsParam } from "~/http/extension-input.server";
import { extensionError, handleExtensionRequest } from "~/http/extension-request.server";

// GET /api/extensions/print/pdf?orders=<id>,<id> — the PDF Shopify's print menu shows and prints
// (the print action's `src`): every bought PDF or PNG label of the orders, a page per box, in the
// order of the selection. Shopify fetches it with the admin's session token, like any extension call.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleExtensionRequest(request, async ({ db, shop }) => {
    const ids = readOrderIdsParam(new URL(request.url), "orders");
    if (!ids.ok) return ids.response;
    const labels = await listPrintableLabelsForOrders({ db, shop }, ids.value);
    const built = await buildMergedPdf(labels, { fetchFile: (url, init) => fetch(url, init) });
    if (!built.ok) return extensionError(422, "NOTHING_TO_PRINT", built.error.message);
    return new Response(Buffer.from(built.value.bytes), {
      headers: {
        "Content-Type": "application/pdf",
        // Shown in Shopify's print preview, not saved: inline.
        "Content-Disposition": 'inline; filename="shipping-labels.pdf"',
        "X-Labels-Skipped": String(built.value.skipped.length),
        "Cache-Control": "no-store",
      },
    });
  });
