// Reading back what pdf-lib drew on a page, for tests of the PDFs the app makes (labels merged,
// packing slips). Not a test file itself.
import { decodePDFRawStream, PDFArray, type PDFPage, PDFRawStream } from "@cantoo/pdf-lib";

export function readContentStreams(page: PDFPage): string {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray() : contents === undefined ? [] : [contents];
  return streams
    .map((entry) => page.doc.context.lookup(entry))
    .map((stream) => {
      if (!(stream instanceof PDFRawStream)) throw new Error("page content is not a stream");
      return new TextDecoder().decode(decodePDFRawStream(stream).decode());
    })
    .join("\n");
}

/** The text lines drawn on a page (pdf-lib writes them as hex strings). */
export function readPageText(page: PDFPage): string[] {
  return [...readContentStreams(page).matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((match) =>
    Buffer.from(match[1] ?? "", "hex").toString("latin1"),
  );
}
