import type { LoaderFunctionArgs } from "@remix-run/node";

import { buildLabelsPdf } from "~/bulk/label-pdf.server";
import { requireShopContext } from "~/http/shop-context.server";
import { findLabel } from "~/labels/label-repository.server";

// GET /app/labels/:labelId/print — one bought label as a PDF with its packing slip, as the shop's
// setting prints it (the order page's "Label and packing slip"). Fetched by the page, which App
// Bridge gives the session token, and saved or printed from memory.

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { db, shop } = await requireShopContext(request);
  const label = await findLabel(db, shop, params.labelId ?? "");
  if (!label || !label.labelUrl) {
    return Response.json({ error: { message: "This label has no file to print yet." } }, { status: 404 });
  }
  const built = await buildLabelsPdf({ db, shop, fetchFile: (url, init) => fetch(url, init) }, [label]);
  if (!built.ok) return Response.json({ error: { message: built.error.message } }, { status: 422 });
  return new Response(Buffer.from(built.value.bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="label-${label.orderName.replace(/[^\w-]/g, "")}.pdf"`,
      "Cache-Control": "no-store",
    },
  });
};
