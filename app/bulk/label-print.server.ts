import { createHash } from "node:crypto";

import { EncryptedPDFError, PDFDocument, type PDFImage } from "@cantoo/pdf-lib";
import { type Zippable, zipSync } from "fflate";

import { appendPackingSlip, type PackingSlip } from "~/labels/packing-slip";
import type { PackingSlipMode } from "~/settings/settings";
import type { AppError } from "~/utils/app-error";
import { err, ok, type Result } from "~/utils/result";

import { type LabelFileFormat, nameFirstFew, PRINT_ELSEWHERE, resolveLabelFormat } from "./print-files";

// Turns the labels of a bulk run into files a merchant prints in one go: one merged PDF (PDF and
// PNG labels), one ZPL file for thermal printers, or a ZIP of the PNG images. The labels arrive in
// the run's order and every output keeps it, so the stack that comes out of the printer matches
// the packing list. A label that cannot go into a file is listed in `skipped` with a reason the
// merchant can act on; nothing is dropped silently.

/** A bought label as the print files need it; `labelUrl` is the shipping service's file. */
export type PrintableLabel = {
  labelId: string;
  orderName: string;
  labelUrl: string;
  /** "pdf", "png" or "zpl" as the service reported it; null when it reported none. */
  labelFormat: string | null;
  /** "4x6" or "4x8"; anything else prints on 4x6, the service's default. */
  labelSize: string | null;
  /** One per box; a multi-piece label has one page, one ^XA..^XZ or one image per box. */
  trackingNumbers: string[];
  /** Its packing slip, when the merged PDF is to carry one (the shop's setting). */
  slip?: PackingSlip | null;
};

/** A bought label as the print files take it; null while it has no file to print. */
export function toPrintableLabel(label: {
  id: string;
  orderName: string;
  labelUrl: string | null;
  labelFormat: string | null;
  labelSize: string | null;
  trackingNumbers: string[];
}): PrintableLabel | null {
  if (!label.labelUrl) return null;
  return {
    labelId: label.id,
    orderName: label.orderName,
    labelUrl: label.labelUrl,
    labelFormat: label.labelFormat,
    labelSize: label.labelSize,
    trackingNumbers: label.trackingNumbers,
  };
}

/** How label files are downloaded: `globalThis.fetch` in production, an emulator's in tests. */
export type FetchFile = (url: string, init?: { signal?: AbortSignal }) => Promise<Response>;

export type LabelPrintDeps = {
  fetchFile: FetchFile;
  /** Files downloaded at the same time; assembly still follows the list order. Default 4. */
  concurrency?: number;
  /** Per label, download included; a slower download counts as a failed one. Default 30 s. */
  timeoutMs?: number;
};

export type SkippedLabel = { labelId: string; orderName: string; reason: string };

export type MergedPdf = { bytes: Uint8Array; pages: number; included: string[]; skipped: SkippedLabel[] };
export type ZplFile = { text: string; included: string[]; skipped: SkippedLabel[] };
export type PngArchive = { bytes: Uint8Array; fileNames: string[]; included: string[]; skipped: SkippedLabel[] };

export type LabelPrintErrorCode = "NOTHING_TO_PRINT";

export interface LabelPrintError extends AppError<LabelPrintErrorCode> {
  readonly source: "labels";
  /** Every label of the list and why it could not go into the file. */
  readonly skipped: readonly SkippedLabel[];
}

const DEFAULT_CONCURRENCY = 4;
const DEFAULT_TIMEOUT_MS = 30_000;

// 72 points per inch: the label stock the service prints on, 4 inches wide.
const PAGE_SIZES: Record<"4x6" | "4x8", [number, number]> = { "4x6": [288, 432], "4x8": [288, 576] };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

type KnownFormat = LabelFileFormat;

/**
 * One PDF of every PDF and PNG label, in list order: each PDF page copied as it is (one per box),
 * each PNG on its own page of the label's size. ZPL has no PDF rendering here, so ZPL labels are
 * listed in `skipped`. With `packingSlips`, each printed label's slip (`PrintableLabel.slip`) is a
 * page of the label's size, right after the label or all after the last label.
 */
export async function buildMergedPdf(
  labels: readonly PrintableLabel[],
  deps: LabelPrintDeps,
  options: { packingSlips?: PackingSlipMode } = {},
): Promise<Result<MergedPdf, LabelPrintError>> {
  const slips = options.packingSlips ?? "off";
  const slipsAfterAll: { slip: PackingSlip; size: [number, number] }[] = [];
  const output = await PDFDocument.create();
  output.setTitle("Shipping labels");
  const included: string[] = [];
  const skipped: SkippedLabel[] = [];
  const accepts = new Set<KnownFormat>(["pdf", "png"]);

  for await (const { label, loaded } of loadLabelsInOrder(labels, accepts, deps)) {
    if (!loaded.ok) {
      skipped.push(skip(label, loaded.error));
      continue;
    }
    const added =
      loaded.value.format === "pdf"
        ? await appendPdfPages(output, loaded.value.files)
        : await appendPngPages(output, loaded.value.files, label.labelSize);
    if (!added.ok) {
      skipped.push(skip(label, added.error));
      continue;
    }
    included.push(label.labelId);
    if (slips === "off" || !label.slip) continue;
    const size = getPageSize(label.labelSize);
    if (slips === "after_each") await appendPackingSlip(output, label.slip, size);
    else slipsAfterAll.push({ slip: label.slip, size });
  }
  for (const { slip, size } of slipsAfterAll) await appendPackingSlip(output, slip, size);

  if (included.length === 0) return err(nothingToPrint("PDF file", labels.length, skipped));
  // The page count comes from the document itself: it is what the printer will get.
  return ok({ bytes: await output.save(), pages: output.getPageCount(), included, skipped });
}

/**
 * One ZPL file of every ZPL label, in list order. Each label's file already holds one ^XA..^XZ
 * per box, so the files are joined as they are; other formats are listed in `skipped`.
 */
export async function buildZplFile(
  labels: readonly PrintableLabel[],
  deps: LabelPrintDeps,
): Promise<Result<ZplFile, LabelPrintError>> {
  const parts: string[] = [];
  const included: string[] = [];
  const skipped: SkippedLabel[] = [];
  const accepts = new Set<KnownFormat>(["zpl"]);
  const decoder = new TextDecoder("utf-8");

  for await (const { label, loaded } of loadLabelsInOrder(labels, accepts, deps)) {
    if (!loaded.ok) {
      skipped.push(skip(label, loaded.error));
      continue;
    }
    const text = loaded.value.files.map((bytes) => decoder.decode(bytes)).join("");
    // A file without a label format start is an error page or another format: printing it would
    // waste a label or print garbage.
    if (!/\^XA/i.test(text)) {
      skipped.push(skip(label, "The label file isn't ZPL. Download it from the order page."));
      continue;
    }
    // Printers need nothing between labels, but a newline keeps one label's ^XZ from running into
    // the next one's ^XA when a file lacks its final newline.
    parts.push(text.endsWith("\n") ? text : `${text}\n`);
    included.push(label.labelId);
  }

  if (included.length === 0) return err(nothingToPrint("ZPL file", labels.length, skipped));
  return ok({ text: parts.join(""), included, skipped });
}

/**
 * A ZIP of every PNG label's image, named `<NN>-<order name>-<label id>.png` with NN the label's
 * position in the list, so sorting by name gives the list order. A multi-piece label adds
 * `-box<n>` per box. PNG is already compressed: the files are stored, not deflated again.
 */
export async function buildPngArchive(
  labels: readonly PrintableLabel[],
  deps: LabelPrintDeps,
): Promise<Result<PngArchive, LabelPrintError>> {
  const files: Zippable = {};
  const fileNames: string[] = [];
  const included: string[] = [];
  const skipped: SkippedLabel[] = [];
  const accepts = new Set<KnownFormat>(["png"]);
  const width = Math.max(2, String(labels.length).length);
  let position = 0;

  for await (const { label, loaded } of loadLabelsInOrder(labels, accepts, deps)) {
    position += 1;
    if (!loaded.ok) {
      skipped.push(skip(label, loaded.error));
      continue;
    }
    const boxes = loaded.value.files;
    if (!boxes.every(isPng)) {
      skipped.push(skip(label, "The label file isn't a PNG image. Download it from the order page."));
      continue;
    }
    const stem = `${String(position).padStart(width, "0")}-${toFileNamePart(label.orderName.replace(/^#/, ""))}-${toFileNamePart(label.labelId)}`;
    boxes.forEach((bytes, index) => {
      const name = boxes.length === 1 ? `${stem}.png` : `${stem}-box${index + 1}.png`;
      files[name] = [bytes, { level: 0 }];
      fileNames.push(name);
    });
    included.push(label.labelId);
  }

  if (included.length === 0) return err(nothingToPrint("ZIP of PNG images", labels.length, skipped));
  return ok({ bytes: zipSync(files), fileNames, included, skipped });
}

// --- loading -------------------------------------------------------------------------------

type LoadedLabel = { format: KnownFormat; files: Uint8Array[] };

/**
 * Downloads the labels a file accepts, at most `concurrency` at a time, and hands every label back
 * in list order. A download starts only when one ahead of it has been handed over, so besides the
 * output at most `concurrency` labels' files are held, however long the run.
 */
async function* loadLabelsInOrder(
  labels: readonly PrintableLabel[],
  accepts: ReadonlySet<KnownFormat>,
  deps: LabelPrintDeps,
): AsyncGenerator<{ label: PrintableLabel; loaded: Result<LoadedLabel, string> }> {
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`label print concurrency must be a positive integer, got ${concurrency}`);
  }
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Decided before any download, so a label this file does not take never holds a slot.
  const plans = labels.map((label) => ({ label, format: checkPrintable(label, accepts) }));
  const toDownload = plans.flatMap((plan) =>
    plan.format.ok ? [{ label: plan.label, format: plan.format.value }] : [],
  );
  // Aborts the downloads still under way when the caller stops early (or throws).
  const stop = new AbortController();
  const window: Promise<Result<LoadedLabel, string>>[] = [];
  let nextDownload = 0;

  const startNext = (): void => {
    const next = toDownload[nextDownload];
    nextDownload += 1;
    if (next === undefined) return;
    const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(timeoutMs)]);
    const loading = downloadLabel(next.label, next.format, deps.fetchFile, signal);
    // downloadLabel answers failures as results; this only keeps a bug's rejection in a promise
    // the loop has not reached yet from being reported as unhandled. Awaiting it still throws.
    loading.catch(() => undefined);
    window.push(loading);
  };

  try {
    for (let i = 0; i < concurrency; i++) startNext();
    for (const { label, format } of plans) {
      if (!format.ok) {
        yield { label, loaded: format };
        continue;
      }
      const loading = window.shift();
      if (loading === undefined) throw new Error("label print window out of step with the list");
      const loaded = await loading;
      startNext();
      yield { label, loaded };
    }
  } finally {
    stop.abort();
  }
}

/** The label's format when this file takes it; otherwise where the merchant prints it instead. */
function checkPrintable(label: PrintableLabel, accepts: ReadonlySet<KnownFormat>): Result<KnownFormat, string> {
  const format = resolveLabelFormat(label);
  if (format === null) {
    const named = label.labelFormat?.trim()
      ? `${label.labelFormat.trim().toUpperCase()} label`
      : "Label of unknown format";
    return err(`${named}: it can't be added to this file. Download it from the order page.`);
  }
  if (!accepts.has(format)) return err(PRINT_ELSEWHERE[format]);
  if (label.labelUrl.trim() === "") return err("This label has no file yet. Open it from the order page.");
  if (!URL.canParse(label.labelUrl)) return err("This label's file address is invalid. Open it from the order page.");
  return ok(format);
}

async function downloadLabel(
  label: PrintableLabel,
  format: KnownFormat,
  fetchFile: FetchFile,
  signal: AbortSignal,
): Promise<Result<LoadedLabel, string>> {
  const files: Uint8Array[] = [];
  for (const url of listFileUrls(label, format)) {
    const file = await downloadFile(url, fetchFile, signal);
    if (!file.ok) return file;
    files.push(file.value);
  }
  if (format === "png" && files.length > 1 && hasRepeatedFile(files)) {
    // The service ignored the box number and sent box 1 again: printing it would put one
    // tracking number on several boxes.
    return err(
      "This label's PNG file shows the same image for more than one box. Download each box's label from the order page.",
    );
  }
  return ok({ format, files });
}

/**
 * The service's PNG is one image, of box 1 unless `?box=n` asks for another; PDF and ZPL files
 * already hold every box.
 */
function listFileUrls(label: PrintableLabel, format: KnownFormat): string[] {
  const boxes = label.trackingNumbers.length;
  if (format !== "png" || boxes <= 1) return [label.labelUrl];
  return Array.from({ length: boxes }, (_, index) => {
    const url = new URL(label.labelUrl);
    url.searchParams.set("box", String(index + 1));
    return url.toString();
  });
}

async function downloadFile(
  url: string,
  fetchFile: FetchFile,
  signal: AbortSignal,
): Promise<Result<Uint8Array, string>> {
  try {
    const response = await fetchFile(url, { signal });
    if (!response.ok) {
      // Free the connection: the error page's body is not needed.
      await response.body?.cancel().catch(() => undefined);
      return err(
        `Couldn't download the label file (the shipping service answered ${response.status}). Try again, or download it from the order page.`,
      );
    }
    return ok(new Uint8Array(await response.arrayBuffer()));
  } catch (cause) {
    const timedOut = cause instanceof DOMException && cause.name === "TimeoutError";
    return err(
      timedOut
        ? "Couldn't download the label file: the shipping service took too long. Try again."
        : "Couldn't download the label file: the shipping service couldn't be reached. Try again.",
    );
  }
}

// --- assembling ----------------------------------------------------------------------------

async function appendPdfPages(output: PDFDocument, files: readonly Uint8Array[]): Promise<Result<number, string>> {
  let added = 0;
  for (const bytes of files) {
    let source: PDFDocument;
    try {
      // Loaded whole before anything is copied: a damaged file adds no page at all.
      source = await PDFDocument.load(bytes, { updateMetadata: false });
    } catch (cause) {
      return err(
        cause instanceof EncryptedPDFError
          ? "The label PDF is password-protected, so it can't be merged. Download it from the order page."
          : "The label file isn't a readable PDF. Download it from the order page.",
      );
    }
    if (source.getPageCount() === 0) return err("The label PDF has no pages. Download it from the order page.");
    const pages = await output.copyPages(source, source.getPageIndices());
    for (const page of pages) output.addPage(page);
    added += pages.length;
  }
  return ok(added);
}

async function appendPngPages(
  output: PDFDocument,
  files: readonly Uint8Array[],
  labelSize: string | null,
): Promise<Result<number, string>> {
  // Checked for every box first, so that a bad box 3 does not leave boxes 1 and 2 printed alone.
  if (!files.every(isPng)) return err("The label file isn't a PNG image. Download it from the order page.");
  const [width, height] = getPageSize(labelSize);
  for (const bytes of files) {
    let image: PDFImage;
    try {
      image = await output.embedPng(bytes);
    } catch {
      return err("The label image is damaged. Download it from the order page.");
    }
    const page = output.addPage([width, height]);
    // Fit the whole image, aspect kept, centred: a label cut off at the edge may not scan.
    const fitted = image.scaleToFit(width, height);
    page.drawImage(image, {
      x: (width - fitted.width) / 2,
      y: (height - fitted.height) / 2,
      width: fitted.width,
      height: fitted.height,
    });
  }
  return ok(files.length);
}

/** 4x6 is the service's default size, so a label without one is printed on 4x6 stock. */
function getPageSize(labelSize: string | null): [number, number] {
  return labelSize === "4x8" ? PAGE_SIZES["4x8"] : PAGE_SIZES["4x6"];
}

// --- helpers -------------------------------------------------------------------------------

function isPng(bytes: Uint8Array): boolean {
  return PNG_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

function hasRepeatedFile(files: readonly Uint8Array[]): boolean {
  const seen = new Set<string>();
  for (const bytes of files) {
    const key = createHash("sha256").update(bytes).digest("hex");
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** Order names and ids as safe file-name parts on every OS: `#1001` stays readable as `1001`. */
function toFileNamePart(value: string): string {
  const cleaned = value.trim().replace(/[^A-Za-z0-9._-]+/g, "_");
  return cleaned === "" ? "label" : cleaned;
}

function skip(label: PrintableLabel, reason: string): SkippedLabel {
  return { labelId: label.labelId, orderName: label.orderName, reason };
}

/** "#1001 (ZPL label: print it from the ZPL file), #1002 (…) and 3 more": which labels, and why. */
function describeSkipped(skipped: readonly SkippedLabel[]): string {
  return nameFirstFew(skipped.map((s) => `${s.orderName} (${s.reason})`));
}

function nothingToPrint(file: string, total: number, skipped: SkippedLabel[]): LabelPrintError {
  const message =
    total === 0
      ? "There are no labels to print."
      : `None of these labels could go into the ${file}: ${describeSkipped(skipped)}.`;
  return {
    source: "labels",
    code: "NOTHING_TO_PRINT",
    message,
    logMessage: `build ${file}: 0 of ${total} labels included; ${skipped.map((s) => `${s.labelId}: ${s.reason}`).join("; ")}`,
    fields: [],
    fixable: false,
    skipped,
  };
}
