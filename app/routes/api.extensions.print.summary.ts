import type { LoaderFunctionArgs } from "@remix-run/node";

import { summarizePrintForExtension } from "~/http/extension-api.server";
import type { ExtensionPrintSummary } from "~/http/extension-contract";
import { readOrderIdsParam } from "~/http/extension-input.server";
import { handleExtensionRequest } from "~/http/extension-request.server";

// GET /api/extensions/print/summary?orderIds=<gid>,<gid> — "Shipping label" in Shopify's print
// menu: which of the orders' bought labels go in the PDF, which are ZPL (and where to get them),
// and which orders have none.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleExtensionRequest(request, async ({ db, shop }) => {
    const ids = readOrderIdsParam(new URL(request.url), "orderIds");
    if (!ids.ok) return ids.response;
    return Response.json((await summarizePrintForExtension({ db, shop }, ids.value)) satisfies ExtensionPrintSummary);
  });
