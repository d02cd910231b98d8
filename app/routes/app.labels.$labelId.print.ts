import type { LoaderFunctionArgs } from "react-router";

import { buildLabelsPdf } from "~/bulk/label-pdf.server";
import { buildZplFile, toPrintableLabel } from "~/bulk/label-print.server";
import { PRINT_FILES, resolveLabelFormat } from "~/bulk/print-files";
import { requireShopContext } from "~/http/shop-context.server";
import { findLabel } from "~/labels/label-repository.server";

// GET /app/labels/:labelId/print — one bought label as a file, always as an attachment: a PDF (PDF
// and PNG labels, with the packing slip when the shop's setting prints one) or the ZPL as the
// service made it. Fetched by the page, which App Bridge gives the session token; the page saves
// it ("Download") or prints it from a hidden frame ("Print", components/shared/print-in-place.ts).

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { db, shop } = await requireShopContext(request);
  const label = await findLabel(db, shop, params.labelId ?? "");
  const printable = label ? toPrintableLabel(label) : null;
  if (!label || !printable) {
    return Response.json({ error: { message: "This label has no file to print yet." } }, { status: 404 });
  }
  if (label.status === "voided" || label.status === "void_pending") {
    // The Labels list and the order page offer no file for it either: a voided label must not ship.
    return Response.json({ error: { message: "This label was voided: it must not ship." } }, { status: 409 });
  }
  const fetchFile = (url: string, init?: { signal?: AbortSignal }) => fetch(url, init);
  const name = `label-${label.orderName.replace(/[^\w-]/g, "")}`;
  const headers = (format: "pdf" | "zpl") => ({
    "Content-Type": PRINT_FILES[format].contentType,
    "Content-Disposition": `attachment; filename="${name}.${PRINT_FILES[format].extension}"`,
    "Cache-Control": "no-store",
  });
  if (resolveLabelFormat(label) === "zpl") {
    const built = await buildZplFile([printable], { fetchFile });
    if (!built.ok) return Response.json({ error: { message: built.error.message } }, { status: 422 });
    return new Response(built.value.text, { headers: headers("zpl") });
  }
  const built = await buildLabelsPdf({ db, shop, fetchFile }, [label]);
  if (!built.ok) return Response.json({ error: { message: built.error.message } }, { status: 422 });
  return new Response(Buffer.from(built.value.bytes), { headers: headers("pdf") });
};
