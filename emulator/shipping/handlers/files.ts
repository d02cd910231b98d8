// GET /files/{label id}.{pdf,png,zpl}: a purchased label's printable file, rendered on request.

import type { CoreResponse, RequestContext, ShippingCore } from "../core";
import type { LabelFormat, PrintableLabel } from "../label-files";
import { respondError } from "./responses";

export async function handleFile(core: ShippingCore, ctx: RequestContext): Promise<CoreResponse> {
  const match = /^(lbl_[0-9a-z]+)\.(pdf|png|zpl)$/.exec(ctx.params.id);
  const label = match?.[1] === undefined ? undefined : core.state.labels.get(match[1]);
  const format = match?.[2] as LabelFormat | undefined;
  if (label === undefined || label.purchase === null || format === undefined) {
    return respondError(ctx.requestId, 404, "NOT_FOUND", "No purchased label file here");
  }
  const printable: PrintableLabel = {
    id: label.id,
    carrier: label.carrier,
    service: label.service.service,
    from: label.from,
    to: label.to,
    trackingNumbers: label.purchase.trackingNumbers,
    size: label.labelSize,
    reference: label.reference,
  };
  const headers = { "x-request-id": ctx.requestId };
  // pdf-lib and bwip-js load on the first file request: label creation never pays for them.
  const { renderPdf, renderPng, renderZpl } = await import("../label-files");
  if (format === "zpl")
    return {
      status: 200,
      headers: { ...headers, "content-type": "application/zpl; charset=utf-8" },
      body: renderZpl(printable),
    };
  if (format === "pdf")
    return {
      status: 200,
      headers: { ...headers, "content-type": "application/pdf" },
      body: await renderPdf(printable),
    };
  const box = Number(new URLSearchParams(ctx.req.query).get("box") ?? "1");
  return {
    status: 200,
    headers: { ...headers, "content-type": "image/png" },
    body: await renderPng(printable, Number.isInteger(box) && box >= 1 ? box : 1),
  };
}
