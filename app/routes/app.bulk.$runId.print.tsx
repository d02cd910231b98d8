import type { LoaderFunctionArgs } from "react-router";
import { z } from "zod";

import { buildLabelsPdf } from "~/bulk/label-pdf.server";
import { buildPngArchive, buildZplFile, toPrintableLabel } from "~/bulk/label-print.server";
import { PRINT_FILES, PRINT_FORMATS, printFileName, type PrintFormat } from "~/bulk/print-files";
import { requireShopContext } from "~/http/shop-context.server";
import { listBulkRunLabels } from "~/routes/app.bulk.$runId/bulk-run-view.server";

// GET /app/bulk/:runId/print?format=pdf|zpl|png — every label the run bought, in the run's order:
// one merged PDF, one ZPL file, or a ZIP of the PNGs. Fetched by the page (App Bridge adds the
// session token to the app's own requests) and saved as a file. What could not go in a file is
// named in X-Labels-Skipped, so the page can say which labels to print from their orders.

const QuerySchema = z.object({ format: z.enum(PRINT_FORMATS as [PrintFormat, ...PrintFormat[]]) });

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { db, shop } = await requireShopContext(request);
  const runId = params.runId ?? "";
  const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return Response.json({ error: { message: "Choose pdf, zpl or png." } }, { status: 400 });
  const views = await listBulkRunLabels(db, shop, runId);
  const labels = views.flatMap((label) => toPrintableLabel(label) ?? []);
  const deps = { fetchFile: (url: string, init?: { signal?: AbortSignal }) => fetch(url, init) };
  const format = query.data.format;
  // Packing slips go into the PDF only: ZPL and PNG files hold the labels as the service made them.
  const built =
    format === "pdf"
      ? await buildLabelsPdf({ db, shop, ...deps }, views)
      : format === "zpl"
        ? await buildZplFile(labels, deps)
        : await buildPngArchive(labels, deps);
  if (!built.ok) return Response.json({ error: { message: built.error.message } }, { status: 422 });
  const file = built.value;
  const body = "text" in file ? file.text : Buffer.from(file.bytes);
  return new Response(body, {
    headers: {
      "Content-Type": PRINT_FILES[format].contentType,
      "Content-Disposition": `attachment; filename="${printFileName(runId, format)}"`,
      "X-Labels-Skipped": String(file.skipped.length),
      "Cache-Control": "no-store",
    },
  });
};
