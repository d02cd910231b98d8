// The files a bulk run's labels print as: what the print route answers and what the run page
// offers and saves, in one place.

export const PRINT_FILES = {
  pdf: { extension: "pdf", contentType: "application/pdf", button: "Download labels (PDF)" },
  zpl: { extension: "zpl", contentType: "application/zpl; charset=utf-8", button: "ZPL file" },
  png: { extension: "zip", contentType: "application/zip", button: "PNG images" },
} as const;

export type PrintFormat = keyof typeof PRINT_FILES;
export const PRINT_FORMATS = Object.keys(PRINT_FILES) as PrintFormat[];

/** The name a run's file is saved under. */
export const printFileName = (runId: string, format: PrintFormat) => `labels-${runId}.${PRINT_FILES[format].extension}`;
