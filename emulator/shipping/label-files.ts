// Printable label files, generated lazily on GET /files/... so that purchase stays cheap.
// PDF: one page per box; ZPL II: one ^XA..^XZ per box; PNG: the Code 128 barcode with its text.

import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { toBuffer } from "bwip-js/node";

import type { Address } from "./validation";

export type LabelFormat = "pdf" | "png" | "zpl";
export type LabelSize = "4x6" | "4x8";

export interface PrintableLabel {
  id: string;
  carrier: string;
  service: string;
  from: Address;
  to: Address;
  trackingNumbers: readonly string[];
  size: LabelSize;
  reference: string | null;
}

const UPS_LINE_MAX = 35;

/**
 * The name/company lines of an address as printed. UPS has no separate company field: with both
 * sent, the company is the name line and the name an attention line, each cut to 35 characters.
 * Other carriers print name and company as two separate lines.
 */
export function formatAddressLines(address: Address, carrier: string): string[] {
  const lines: string[] = [];
  const company = address.company !== null && address.company.trim() !== "" ? address.company : null;
  if (carrier === "UPS" && company !== null) {
    lines.push(company.slice(0, UPS_LINE_MAX), `ATTN: ${address.name.slice(0, UPS_LINE_MAX)}`);
  } else {
    lines.push(address.name);
    if (company !== null) lines.push(company);
  }
  lines.push(address.street1);
  if (address.street2 !== null && address.street2.trim() !== "") lines.push(address.street2);
  lines.push(`${address.city}${address.state ? `, ${address.state}` : ""} ${address.zip}`);
  lines.push(address.country);
  return lines;
}

function makeBarcodePng(text: string, height: number): Promise<Buffer> {
  return toBuffer({ bcid: "code128", text, scale: 2, height, includetext: true, textxalign: "center" });
}

export async function renderPng(label: PrintableLabel, box: number): Promise<Uint8Array> {
  const tracking = label.trackingNumbers[box - 1] ?? label.trackingNumbers[0] ?? "";
  return makeBarcodePng(tracking, 15);
}

/** pdf-lib's standard fonts are WinAnsi only: replace what they cannot draw. */
function toWinAnsi(text: string): string {
  return text.normalize("NFKD").replace(/[^\x20-\x7e]/g, "?");
}

export async function renderPdf(label: PrintableLabel): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Shipping label ${label.id}`);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const height = label.size === "4x8" ? 576 : 432;
  const total = label.trackingNumbers.length;
  for (let i = 0; i < total; i++) {
    const tracking = label.trackingNumbers[i] ?? "";
    const page = pdf.addPage([288, height]);
    let y = height - 24;
    const write = (text: string, size: number, useBold = false): void => {
      page.drawText(toWinAnsi(text), { x: 14, y, size, font: useBold ? bold : font });
      y -= size + 3;
    };
    write(label.carrier, 16, true);
    write(label.service, 11, true);
    y -= 4;
    write("SHIP FROM:", 7, true);
    for (const line of formatAddressLines(label.from, label.carrier)) write(line, 7);
    y -= 6;
    write("SHIP TO:", 9, true);
    for (const line of formatAddressLines(label.to, label.carrier)) write(line, 10, true);
    const barcode = await pdf.embedPng(await makeBarcodePng(tracking, 18));
    const width = 240;
    const scaled = barcode.scale(width / barcode.width);
    page.drawImage(barcode, { x: 24, y: 60, width, height: scaled.height });
    page.drawText(`BOX ${i + 1} OF ${total}`, { x: 14, y: 30, size: 12, font: bold });
    if (label.reference !== null) page.drawText(toWinAnsi(`REF: ${label.reference}`), { x: 150, y: 30, size: 8, font });
  }
  return pdf.save();
}

/** ^ and ~ are ZPL command prefixes: they must not appear in field data. */
function escapeZpl(text: string): string {
  return text.replace(/[\^~]/g, " ");
}

export function renderZpl(label: PrintableLabel): string {
  const heightDots = label.size === "4x8" ? 1624 : 1218; // 203 dpi
  const total = label.trackingNumbers.length;
  const docs: string[] = [];
  for (let i = 0; i < total; i++) {
    const tracking = label.trackingNumbers[i] ?? "";
    const out: string[] = ["^XA", "^CI28", "^PW812", `^LL${heightDots}`];
    let y = 30;
    const field = (text: string, size: number): void => {
      out.push(`^FO30,${y}^A0N,${size},${size}^FD${escapeZpl(text)}^FS`);
      y += size + 8;
    };
    field(label.carrier, 56);
    field(label.service, 36);
    out.push(`^FO20,${y}^GB772,3,3^FS`);
    y += 14;
    field("SHIP FROM:", 22);
    for (const line of formatAddressLines(label.from, label.carrier)) field(line, 22);
    y += 16;
    field("SHIP TO:", 26);
    for (const line of formatAddressLines(label.to, label.carrier)) field(line, 34);
    y += 24;
    out.push(`^FO60,${y}^BY3^BCN,180,Y,N,N^FD${escapeZpl(tracking)}^FS`);
    y += 260;
    field(`BOX ${i + 1} OF ${total}`, 40);
    if (label.reference !== null) field(`REF: ${label.reference}`, 24);
    out.push("^XZ");
    docs.push(out.join("\n"));
  }
  return `${docs.join("\n")}\n`;
}
