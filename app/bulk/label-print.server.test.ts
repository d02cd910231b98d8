import { PDFDict, PDFDocument, PDFName, type PDFPage, PDFRawStream } from "@cantoo/pdf-lib";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";

import type { PackingSlip } from "~/labels/packing-slip";
import type { CreateLabelRequest } from "~/shipping/schemas";

import { createShippingEmulator } from "../../emulator/shipping/emulator";
import { box, upsGroundDomestic } from "../../test/fixtures/shipping-requests";
import { createTestShippingClient, SHIPPING_BASE_URL } from "../../test/helpers/labels";
import { readContentStreams, readPageText } from "../../test/helpers/pdf-text";
import {
  buildMergedPdf,
  buildPngArchive,
  buildZplFile,
  type FetchFile,
  type PrintableLabel,
} from "./label-print.server";

// Labels are bought from the shipping emulator in-process and their files downloaded from it, so
// the PDFs, images and ZPL merged here are the ones the service renders: one PDF page and one
// ^XA..^XZ per box, one PNG image per box. Each label carries its order name as the reference,
// which the service prints on every page ("REF: #1001") next to "BOX n OF N": that is how the
// tests read the order of the merged pages.

const shipping = createShippingEmulator();
const client = createTestShippingClient(shipping);
const fetchFile: FetchFile = (url, init) => shipping.fetch(url, init);

type Format = "pdf" | "png" | "zpl";

async function buyLabel(
  orderName: string,
  format: Format,
  size: "4x6" | "4x8",
  boxes: number,
): Promise<PrintableLabel> {
  const request: CreateLabelRequest = {
    ...upsGroundDomestic,
    // Multi-piece: UPS Ground only, one tracking number and one label per box.
    ...(boxes === 1 ? { parcel: box } : { parcel: undefined, parcels: Array.from({ length: boxes }, () => box) }),
    label_format: format,
    label_size: size,
    reference: orderName,
  };
  const draft = await client.createDraftLabel(request);
  if (!draft.ok) throw new Error(`draft ${orderName}: ${draft.error.logMessage}`);
  const bought = await client.purchaseLabel(draft.value.id);
  if (!bought.ok) throw new Error(`purchase ${orderName}: ${bought.error.logMessage}`);
  return {
    labelId: bought.value.id,
    orderName,
    labelUrl: bought.value.label_url,
    labelFormat: bought.value.label_format ?? null,
    labelSize: size,
    trackingNumbers: bought.value.tracking_numbers,
  };
}

let pdf4x6: PrintableLabel;
let pdf4x8ThreeBoxes: PrintableLabel;
let png4x6: PrintableLabel;
let png4x8TwoBoxes: PrintableLabel;
let zpl4x6: PrintableLabel;
let zpl4x8ThreeBoxes: PrintableLabel;
let missingFile: PrintableLabel;

beforeAll(async () => {
  pdf4x6 = await buyLabel("#1001", "pdf", "4x6", 1);
  pdf4x8ThreeBoxes = await buyLabel("#1002", "pdf", "4x8", 3);
  png4x6 = await buyLabel("#1003", "png", "4x6", 1);
  png4x8TwoBoxes = await buyLabel("#1004", "png", "4x8", 2);
  zpl4x6 = await buyLabel("#1005", "zpl", "4x6", 1);
  zpl4x8ThreeBoxes = await buyLabel("#1006", "zpl", "4x8", 3);
  // A label whose file the service does not have: its URL answers 404.
  missingFile = {
    labelId: "lbl_0000000000000000",
    orderName: "#1007",
    labelUrl: `${SHIPPING_BASE_URL}/files/lbl_0000000000000000.pdf`,
    labelFormat: "pdf",
    labelSize: "4x6",
    trackingNumbers: ["1Z0000000000000000"],
  };
});

// --- reading the output back ---------------------------------------------------------------

/** "REF: #1002 BOX 2 OF 3" for a page of a service PDF; "image" for a page holding one image. */
function describePage(page: PDFPage): string {
  const text = readPageText(page);
  if (text.length === 0) return "image";
  const ref = text.find((line) => line.startsWith("REF: ")) ?? "no ref";
  const boxLine = text.find((line) => line.startsWith("BOX ")) ?? "no box";
  return `${ref} ${boxLine}`;
}

function countImages(page: PDFPage): number {
  const xObjects = page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict);
  if (xObjects === undefined) return 0;
  return xObjects
    .values()
    .map((ref) => page.doc.context.lookup(ref))
    .filter(
      (object) => object instanceof PDFRawStream && object.dict.get(PDFName.of("Subtype")) === PDFName.of("Image"),
    ).length;
}

/** Where the page's one image lands: the `cm` matrices before its `Do`, multiplied out. */
function readImagePlacement(page: PDFPage): { width: number; height: number; x: number; y: number } {
  const content = readContentStreams(page);
  const drawn = content.search(/\/[^\s]+ Do/);
  if (drawn === -1) throw new Error("no image drawn on the page");
  // [a b c d e f], composed as PDF does: each `cm` is applied before the matrix so far.
  let ctm = [1, 0, 0, 1, 0, 0];
  for (const match of content.slice(0, drawn).matchAll(/((?:-?[\d.]+\s+){6})cm/g)) {
    const [a, b, c, d, e, f] = (match[1] ?? "").trim().split(/\s+/).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const [A, B, C, D, E, F] = ctm as [number, number, number, number, number, number];
    ctm = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
  }
  const [width, , , height, x, y] = ctm as [number, number, number, number, number, number];
  return { width, height, x, y };
}

function sizeOf(page: PDFPage): string {
  const { width, height } = page.getSize();
  return `${width}x${height}`;
}

async function download(url: string): Promise<Uint8Array> {
  const response = await shipping.fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// --- merged PDF ----------------------------------------------------------------------------

describe("buildMergedPdf", () => {
  it("copies every page of each PDF label and puts each PNG on its own label-sized page, in list order", async () => {
    const labels = [pdf4x8ThreeBoxes, png4x6, pdf4x6, png4x8TwoBoxes];

    const result = await buildMergedPdf(labels, { fetchFile });

    if (!result.ok) throw new Error(result.error.logMessage);
    const merged = await PDFDocument.load(result.value.bytes);
    const pages = merged.getPages();
    expect(result.value.pages).toBe(7);
    expect(pages.map(describePage)).toEqual([
      "REF: #1002 BOX 1 OF 3",
      "REF: #1002 BOX 2 OF 3",
      "REF: #1002 BOX 3 OF 3",
      "image",
      "REF: #1001 BOX 1 OF 1",
      "image",
      "image",
    ]);
    expect(pages.map(sizeOf)).toEqual(["288x576", "288x576", "288x576", "288x432", "288x432", "288x576", "288x576"]);
    expect(result.value.included).toEqual([
      pdf4x8ThreeBoxes.labelId,
      png4x6.labelId,
      pdf4x6.labelId,
      png4x8TwoBoxes.labelId,
    ]);
    expect(result.value.skipped).toEqual([]);
  });

  it("adds each label's packing slip after it, or all slips after all labels, on the label's stock", async () => {
    const slipOf = (orderName: string, title: string): PackingSlip => ({
      orderName,
      from: { name: "Brooklyn Kettlebells", lines: ["1 Main St", "Brooklyn, NY 11201", "US"] },
      shipTo: { name: "Ana Souza", lines: ["500 W 56th St", "New York, NY 10019", "US"] },
      items: [{ title, sku: "KB-16", quantity: 2 }],
      boxes: 1,
      note: "Thank you for your order!",
    });
    const labels = [
      { ...pdf4x8ThreeBoxes, slip: slipOf("#1002", "Kettlebell 16 kg") },
      { ...png4x6, slip: slipOf("#1003", "Chalk") },
      // A label kept without its request has no slip: it prints alone.
      { ...pdf4x6, slip: null },
    ];
    const describe = (page: PDFPage) => {
      const text = readPageText(page);
      return text[0] === "Packing slip" ? `slip ${text[1]}` : describePage(page);
    };
    const read = async (packingSlips: "after_each" | "after_all" | "off") => {
      const result = await buildMergedPdf(labels, { fetchFile }, { packingSlips });
      if (!result.ok) throw new Error(result.error.logMessage);
      const pages = (await PDFDocument.load(result.value.bytes)).getPages();
      return { order: pages.map(describe), sizes: pages.map(sizeOf), pages };
    };

    const each = await read("after_each");
    expect(each.order).toEqual([
      "REF: #1002 BOX 1 OF 3",
      "REF: #1002 BOX 2 OF 3",
      "REF: #1002 BOX 3 OF 3",
      "slip Order #1002",
      "image",
      "slip Order #1003",
      "REF: #1001 BOX 1 OF 1",
    ]);
    // The slip is the size of its label: 4 × 8 after the 4 × 8 label, 4 × 6 after the 4 × 6.
    expect(each.sizes[3]).toBe("288x576");
    expect(each.sizes[5]).toBe("288x432");
    const slip = readPageText(each.pages[3] as PDFPage);
    expect(slip).toEqual(
      expect.arrayContaining([
        "Ana Souza",
        "500 W 56th St",
        "Brooklyn Kettlebells",
        "2 × Kettlebell 16 kg",
        "SKU KB-16",
      ]),
    );
    expect(slip.at(-1)).toBe("Thank you for your order!");

    expect((await read("after_all")).order).toEqual([
      "REF: #1002 BOX 1 OF 3",
      "REF: #1002 BOX 2 OF 3",
      "REF: #1002 BOX 3 OF 3",
      "image",
      "REF: #1001 BOX 1 OF 1",
      "slip Order #1002",
      "slip Order #1003",
    ]);
    expect((await read("off")).order).toHaveLength(5);
  });

  it("scales each PNG to fit its page, whole and centred", async () => {
    const result = await buildMergedPdf([png4x6, png4x8TwoBoxes], { fetchFile });

    if (!result.ok) throw new Error(result.error.logMessage);
    const pages = (await PDFDocument.load(result.value.bytes)).getPages();
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      const { width: pageWidth, height: pageHeight } = page.getSize();
      const placed = readImagePlacement(page);
      expect(countImages(page)).toBe(1);
      // The barcode image is wider than tall: fitting it fills the width and keeps it inside.
      expect(placed.width).toBeCloseTo(pageWidth, 3);
      expect(placed.height).toBeLessThanOrEqual(pageHeight);
      expect(placed.x).toBeCloseTo(0, 3);
      expect(placed.y).toBeCloseTo((pageHeight - placed.height) / 2, 3);
    }
  });

  it("lists a ZPL label and a file that cannot be downloaded as skipped, with reasons, and keeps the rest", async () => {
    const labels = [zpl4x6, pdf4x6, missingFile, png4x6];

    const result = await buildMergedPdf(labels, { fetchFile });

    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.included).toEqual([pdf4x6.labelId, png4x6.labelId]);
    expect(result.value.skipped).toEqual([
      { labelId: zpl4x6.labelId, orderName: "#1005", reason: "ZPL label: print it from the ZPL file" },
      { labelId: missingFile.labelId, orderName: "#1007", reason: expect.stringContaining("answered 404") },
    ]);
    const merged = await PDFDocument.load(result.value.bytes);
    expect(merged.getPages().map(describePage)).toEqual(["REF: #1001 BOX 1 OF 1", "image"]);
  });

  it("skips a label whose download fails or times out, and one whose file is not a PDF", async () => {
    const unreachable = { ...pdf4x8ThreeBoxes, labelId: "lbl_unreachable", labelUrl: "http://down.test/a.pdf" };
    const hanging = { ...pdf4x6, labelId: "lbl_hanging", labelUrl: "http://slow.test/a.pdf" };
    const notPdf = { ...pdf4x6, labelId: "lbl_not_pdf", labelUrl: "http://html.test/a.pdf" };
    const flaky: FetchFile = (url, init) => {
      if (url.startsWith("http://down.test")) return Promise.reject(new TypeError("fetch failed"));
      if (url.startsWith("http://html.test")) return Promise.resolve(new Response("<html>Service unavailable</html>"));
      if (url.startsWith("http://slow.test")) {
        // Answers only when aborted, as a real fetch would.
        return new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
      }
      return fetchFile(url, init);
    };

    const result = await buildMergedPdf([unreachable, hanging, notPdf, pdf4x6], { fetchFile: flaky, timeoutMs: 100 });

    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.included).toEqual([pdf4x6.labelId]);
    expect(result.value.pages).toBe(1);
    expect(result.value.skipped.map((s) => [s.labelId, s.reason])).toEqual([
      ["lbl_unreachable", expect.stringContaining("couldn't be reached")],
      ["lbl_hanging", expect.stringContaining("took too long")],
      ["lbl_not_pdf", expect.stringContaining("isn't a readable PDF")],
    ]);
  });

  it("downloads at most `concurrency` files at once (4 by default) and still assembles in list order", async () => {
    const labels = [pdf4x8ThreeBoxes, pdf4x6, png4x6, zpl4x6, pdf4x6, pdf4x8ThreeBoxes, png4x6];
    const run = async (concurrency: number | undefined) => {
      let inFlight = 0;
      let most = 0;
      let calls = 0;
      const slowFirst: FetchFile = async (url, init) => {
        // Earlier files answer later, so finishing order is the reverse of the list.
        const delay = (labels.length - calls) * 5;
        calls += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
        await wait(delay);
        inFlight -= 1;
        return fetchFile(url, init);
      };
      const result = await buildMergedPdf(labels, { fetchFile: slowFirst, concurrency });
      if (!result.ok) throw new Error(result.error.logMessage);
      const order = (await PDFDocument.load(result.value.bytes)).getPages().map(describePage);
      return { most, order };
    };

    const two = await run(2);
    const byDefault = await run(undefined);

    const expectedOrder = [
      "REF: #1002 BOX 1 OF 3",
      "REF: #1002 BOX 2 OF 3",
      "REF: #1002 BOX 3 OF 3",
      "REF: #1001 BOX 1 OF 1",
      "image",
      "REF: #1001 BOX 1 OF 1",
      "REF: #1002 BOX 1 OF 3",
      "REF: #1002 BOX 2 OF 3",
      "REF: #1002 BOX 3 OF 3",
      "image",
    ];
    expect(two).toEqual({ most: 2, order: expectedOrder });
    expect(byDefault).toEqual({ most: 4, order: expectedOrder });
  });

  it("answers NOTHING_TO_PRINT with every label's reason when no label can go into the PDF", async () => {
    const result = await buildMergedPdf([zpl4x6, missingFile], { fetchFile });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ source: "labels", code: "NOTHING_TO_PRINT" });
    expect(result.error.skipped.map((s) => s.labelId)).toEqual([zpl4x6.labelId, missingFile.labelId]);
    // The merchant reads which labels and why, not "each label shows why".
    expect(result.error.message).toContain(`${zpl4x6.orderName} (ZPL label: print it from the ZPL file)`);
    expect(result.error.message).toContain(missingFile.orderName);
  });
});

// --- ZPL file ------------------------------------------------------------------------------

describe("buildZplFile", () => {
  it("joins the ZPL labels in list order, one ^XA..^XZ per box, and lists the other formats as skipped", async () => {
    const labels = [zpl4x8ThreeBoxes, pdf4x6, zpl4x6, png4x6, missingFile];

    const result = await buildZplFile(labels, { fetchFile });

    if (!result.ok) throw new Error(result.error.logMessage);
    const { text } = result.value;
    expect(text.match(/\^XA/g)).toHaveLength(4);
    expect(text.match(/\^XZ/g)).toHaveLength(4);
    const boxes = text
      .split("^XZ")
      .filter((doc) => doc.includes("^XA"))
      .map((doc) => `${/\^FD(REF: [^^]*)\^FS/.exec(doc)?.[1]} ${/\^FD(BOX \d+ OF \d+)\^FS/.exec(doc)?.[1]}`);
    expect(boxes).toEqual([
      "REF: #1006 BOX 1 OF 3",
      "REF: #1006 BOX 2 OF 3",
      "REF: #1006 BOX 3 OF 3",
      "REF: #1005 BOX 1 OF 1",
    ]);
    expect(result.value.included).toEqual([zpl4x8ThreeBoxes.labelId, zpl4x6.labelId]);
    expect(result.value.skipped).toEqual([
      { labelId: pdf4x6.labelId, orderName: "#1001", reason: "PDF label: print it from the PDF file" },
      { labelId: png4x6.labelId, orderName: "#1003", reason: "PNG label: print it from the PDF file" },
      { labelId: missingFile.labelId, orderName: "#1007", reason: "PDF label: print it from the PDF file" },
    ]);
  });

  it("takes the format from the file's extension when none was stored", async () => {
    const unknownFormat = { ...zpl4x6, labelFormat: null };

    const result = await buildZplFile([unknownFormat], { fetchFile });

    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.included).toEqual([zpl4x6.labelId]);
    expect(result.value.text.match(/\^XA/g)).toHaveLength(1);
  });

  it("skips a ZPL label whose file cannot be downloaded", async () => {
    const gone = { ...zpl4x6, labelId: "lbl_gone", labelUrl: `${SHIPPING_BASE_URL}/files/lbl_0000000000000000.zpl` };

    const result = await buildZplFile([gone, zpl4x8ThreeBoxes], { fetchFile });

    if (!result.ok) throw new Error(result.error.logMessage);
    expect(result.value.text.match(/\^XA/g)).toHaveLength(3);
    expect(result.value.skipped).toEqual([
      { labelId: "lbl_gone", orderName: "#1005", reason: expect.stringContaining("answered 404") },
    ]);
  });
});

// --- PNG archive ---------------------------------------------------------------------------

describe("buildPngArchive", () => {
  it("zips each PNG label's images under numbered names in list order, one file per box", async () => {
    const labels = [png4x6, pdf4x6, png4x8TwoBoxes, zpl4x6];

    const result = await buildPngArchive(labels, { fetchFile });

    if (!result.ok) throw new Error(result.error.logMessage);
    const files = unzipSync(result.value.bytes);
    const names = [
      `01-1003-${png4x6.labelId}.png`,
      `03-1004-${png4x8TwoBoxes.labelId}-box1.png`,
      `03-1004-${png4x8TwoBoxes.labelId}-box2.png`,
    ];
    expect(Object.keys(files)).toEqual(names);
    expect(result.value.fileNames).toEqual(names);
    expect(files[names[0] ?? ""]).toEqual(await download(png4x6.labelUrl));
    expect(files[names[1] ?? ""]).toEqual(await download(`${png4x8TwoBoxes.labelUrl}?box=1`));
    expect(files[names[2] ?? ""]).toEqual(await download(`${png4x8TwoBoxes.labelUrl}?box=2`));
    expect(files[names[1] ?? ""]).not.toEqual(files[names[2] ?? ""]);
    expect(result.value.skipped).toEqual([
      { labelId: pdf4x6.labelId, orderName: "#1001", reason: "PDF label: print it from the PDF file" },
      { labelId: zpl4x6.labelId, orderName: "#1005", reason: "ZPL label: print it from the ZPL file" },
    ]);
  });

  it("skips a multi-box PNG label when the service sends the same image for every box", async () => {
    // A service that ignores the box number would print one tracking number on several boxes.
    const ignoresBox: FetchFile = (url, init) => fetchFile(url.split("?")[0] ?? url, init);

    const result = await buildPngArchive([png4x8TwoBoxes, png4x6], { fetchFile: ignoresBox });

    if (!result.ok) throw new Error(result.error.logMessage);
    expect(Object.keys(unzipSync(result.value.bytes))).toEqual([`02-1003-${png4x6.labelId}.png`]);
    expect(result.value.skipped).toEqual([
      { labelId: png4x8TwoBoxes.labelId, orderName: "#1004", reason: expect.stringContaining("same image") },
    ]);
  });

  it("answers NOTHING_TO_PRINT when the list holds no PNG label", async () => {
    const result = await buildPngArchive([pdf4x6, zpl4x6], { fetchFile });

    expect(!result.ok && result.error.code).toBe("NOTHING_TO_PRINT");
  });
});
