// The files a bulk run's labels print as: what the print route answers and what the run page
// offers and saves, in one place.

export const PRINT_FILES = {
  pdf: { extension: "pdf", contentType: "application/pdf", button: "Download labels (PDF)", file: "PDF file" },
  zpl: {
    extension: "zpl",
    contentType: "application/zpl; charset=utf-8",
    button: "Download ZPL file",
    file: "ZPL file",
  },
  png: {
    extension: "zip",
    contentType: "application/zip",
    button: "Download PNG images (ZIP)",
    file: "ZIP of PNG images",
  },
} as const;

export type PrintFormat = keyof typeof PRINT_FILES;
export const PRINT_FORMATS = Object.keys(PRINT_FILES) as PrintFormat[];

/** The name a run's file is saved under. */
export const printFileName = (runId: string, format: PrintFormat) => `labels-${runId}.${PRINT_FILES[format].extension}`;

/** The formats the service makes labels in that this app can print. */
export type LabelFileFormat = "pdf" | "png" | "zpl";

/** Which labels each file takes: PNG images also go into the PDF, one page each. */
export const FORMATS_IN_FILE: Record<PrintFormat, readonly LabelFileFormat[]> = {
  pdf: ["pdf", "png"],
  zpl: ["zpl"],
  png: ["png"],
};

function isLabelFileFormat(value: string): value is LabelFileFormat {
  return value === "pdf" || value === "png" || value === "zpl";
}

/** The stored format, or the file's extension when none was stored; null when neither is known. */
export function resolveLabelFormat(label: {
  labelFormat: string | null;
  labelUrl: string | null;
}): LabelFileFormat | null {
  const stored = label.labelFormat?.trim().toLowerCase();
  if (stored) return isLabelFileFormat(stored) ? stored : null;
  if (!label.labelUrl) return null;
  let extension: string | undefined;
  try {
    extension = /\.([a-z]+)$/i.exec(new URL(label.labelUrl).pathname)?.[1]?.toLowerCase();
  } catch {
    return null;
  }
  return extension !== undefined && isLabelFileFormat(extension) ? extension : null;
}

/** Where a label that one file does not take prints instead (the print route and the run page). */
export const PRINT_ELSEWHERE: Record<LabelFileFormat, string> = {
  pdf: "PDF label: print it from the PDF file",
  png: "PNG label: print it from the PDF file",
  zpl: "ZPL label: print it from the ZPL file",
};

/** "#1001, #1002 and 3 more": the first few of a list a sentence names, then how many besides. */
export function nameFirstFew(names: readonly string[], few = 5): string {
  const shown = names.slice(0, few).join(", ");
  return names.length > few ? `${shown} and ${names.length - few} more` : shown;
}
