import type { LoaderFunctionArgs } from "react-router";

import type { ExtensionPrintSummary } from "~/extension-api/contract";
import { readOrderIdsParam } from "~/extension-api/input.server";
import { summarizePrintForExtension } from "~/extension-api/print.server";
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
