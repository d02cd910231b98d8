import { type PDFDocument, type PDFFont, rgb, StandardFonts } from "@cantoo/pdf-lib";
import { z } from "zod";

import type { LabelLineItem } from "./label-repository.server";

// A packing slip for one shipment: what goes in the box (the label's items and quantities), the
// order number, where it goes, who sends it and the shop's note. Printed on the label stock
// (4 × 6 or 4 × 8 in), so a thermal printer prints label and slip from one roll.

export type PackingSlip = {
  orderName: string;
  from: { name: string; lines: string[] };
  /** Empty when the ship-to details were redacted (ship-to retention). */
  shipTo: { name: string; lines: string[] };
  items: { title: string; sku: string | null; quantity: number }[];
  boxes: number;
  note: string | null;
};

// What a slip reads of the label request the draft was created from (as sent to the service).
const SlipAddressSchema = z.object({
  name: z.string().optional(),
  company: z.string().nullish(),
  street1: z.string().optional(),
  street2: z.string().nullish(),
  city: z.string().optional(),
  state: z.string().nullish(),
  zip: z.string().optional(),
  country: z.string().nullish(),
});
const SlipRequestSchema = z.object({ from_address: SlipAddressSchema, to_address: SlipAddressSchema });
type SlipAddress = z.infer<typeof SlipAddressSchema>;

function addressLines(address: SlipAddress): string[] {
  const cityLine = [address.city, [address.state, address.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [address.company, address.street1, address.street2, cityLine, address.country]
    .map((line) => line?.trim() ?? "")
    .filter((line) => line !== "");
}

/** The slip of a drafted or bought label; null when the label keeps no request to read it from. */
export function describePackingSlip(
  label: { orderName: string; lineItems: readonly LabelLineItem<string>[]; request: unknown; packageCount: number },
  note: string | null,
): PackingSlip | null {
  const request = SlipRequestSchema.safeParse(label.request);
  if (!request.success) return null;
  const { from_address: from, to_address: to } = request.data;
  return {
    orderName: label.orderName,
    from: { name: from.name?.trim() ?? "", lines: addressLines(from) },
    shipTo: { name: to.name?.trim() ?? "", lines: addressLines(to) },
    items: label.lineItems.map((line) => ({
      // Labels drafted before titles were kept name the item by its position instead.
      title: line.title ?? "Item (see the order in Shopify)",
      sku: line.sku ?? null,
      quantity: line.quantity,
    })),
    boxes: label.packageCount,
    note,
  };
}

const MARGIN = 18;
const INK = rgb(0.1, 0.1, 0.1);
const SUBDUED = rgb(0.35, 0.35, 0.35);

/** Breaks text into lines no wider than `width` at the font's size; long words are cut. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

type SlipFonts = { regular: PDFFont; bold: PDFFont; charset: ReadonlySet<number> };
// One embedding per document: a bulk run's PDF carries hundreds of slips, and each embedFont
// call adds another copy of the font's objects to the file.
const fontsByDocument = new WeakMap<PDFDocument, Promise<SlipFonts>>();

function slipFonts(doc: PDFDocument): Promise<SlipFonts> {
  let fonts = fontsByDocument.get(doc);
  if (!fonts) {
    fonts = (async () => {
      const regular = await doc.embedFont(StandardFonts.Helvetica);
      const bold = await doc.embedFont(StandardFonts.HelveticaBold);
      // Both standard fonts encode the same WinAnsi set.
      return { regular, bold, charset: new Set(regular.getCharacterSet()) };
    })();
    fontsByDocument.set(doc, fonts);
  }
  return fonts;
}

// The standard fonts encode WinAnsi only: anything else (other scripts, emoji) prints as "?"
// rather than failing the whole file.
function printable(text: string, charset: ReadonlySet<number>): string {
  return [...text.normalize("NFC")].map((c) => (charset.has(c.codePointAt(0) ?? 0) ? c : "?")).join("");
}

/** Adds the slip as one page of `size` points (a label's stock) at the end of `doc`. */
export async function appendPackingSlip(doc: PDFDocument, slip: PackingSlip, size: [number, number]): Promise<void> {
  const [width, height] = size;
  const { regular, bold, charset } = await slipFonts(doc);
  const page = doc.addPage(size);
  const inner = width - 2 * MARGIN;
  let y = height - MARGIN;
  const write = (text: string, options: { font?: PDFFont; size?: number; color?: ReturnType<typeof rgb> } = {}) => {
    const font = options.font ?? regular;
    const fontSize = options.size ?? 9;
    for (const line of wrap(printable(text, charset), font, fontSize, inner)) {
      if (y - fontSize < MARGIN) return;
      y -= fontSize + 2;
      page.drawText(line, { x: MARGIN, y, size: fontSize, font, color: options.color ?? INK });
    }
  };
  const gap = (points: number) => void (y -= points);
  const rule = () => {
    gap(4);
    page.drawLine({
      start: { x: MARGIN, y },
      end: { x: width - MARGIN, y },
      thickness: 0.5,
      color: SUBDUED,
    });
    gap(2);
  };

  write("Packing slip", { font: bold, size: 14 });
  write(`Order ${slip.orderName}${slip.boxes > 1 ? ` · ${slip.boxes} boxes` : ""}`, { font: bold, size: 11 });
  rule();
  write("Ship to", { font: bold, size: 8, color: SUBDUED });
  if (slip.shipTo.name || slip.shipTo.lines.length > 0) {
    write(slip.shipTo.name, { font: bold });
    for (const line of slip.shipTo.lines) write(line);
  } else {
    write("The ship-to address was removed after delivery (your data retention setting).");
  }
  gap(4);
  write("From", { font: bold, size: 8, color: SUBDUED });
  write(slip.from.name, { font: bold });
  for (const line of slip.from.lines) write(line);
  rule();
  write(`Items (${slip.items.reduce((n, item) => n + item.quantity, 0)})`, { font: bold, size: 8, color: SUBDUED });
  for (const item of slip.items) {
    write(`${item.quantity} × ${item.title}`);
    if (item.sku) write(`SKU ${item.sku}`, { size: 7, color: SUBDUED });
  }
  if (slip.note) {
    rule();
    write(slip.note, { size: 9 });
  }
}
