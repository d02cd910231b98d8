import { BlockStack, Button, InlineStack, Text } from "@shopify/polaris";

import { nameFirstFew, PRINT_ELSEWHERE, PRINT_FILES, PRINT_FORMATS, printFileName } from "~/bulk/print-files";
import type { BulkRunView } from "~/routes/app.bulk.$runId/bulk-run-view.server";

import { DownloadButton } from "../shared/download-button";
import { usePrintInPlace } from "../shared/print-in-place";

// The run's print files, each offered only when some bought label goes in it; the labels a file
// leaves out are named, with where they print instead. The PDF also prints in place: the system
// print dialog opens over the app, without a download first.

function describeLeftOut(left: BulkRunView["printable"]["pdf"]["elsewhere"]): string {
  const formats = [...new Set(left.map((l) => l.format))];
  const why = formats
    .map((format) => (format ? PRINT_ELSEWHERE[format] : "label of an unknown format: print it from its order"))
    .join("; ");
  return `${nameFirstFew(left.map((l) => l.orderName))} (${why})`;
}

export function BulkRunDownloads({ run, onError }: { run: BulkRunView; onError: (message: string | null) => void }) {
  const offered = PRINT_FORMATS.filter((format) => run.printable[format].count > 0);
  const notes = offered.flatMap((format) => {
    const left = run.printable[format].elsewhere;
    return left.length > 0 ? [`Not in the ${PRINT_FILES[format].file}: ${describeLeftOut(left)}.`] : [];
  });
  const unprintable = run.printable.pdf.elsewhere.filter((l) => l.format === null);
  const { print, printing } = usePrintInPlace(onError);
  const pdfUrl = `/app/bulk/${run.id}/print?format=pdf`;
  return (
    <BlockStack gap="200">
      <InlineStack gap="200">
        {offered.includes("pdf") ? (
          <Button variant="primary" loading={printing} onClick={() => void print(pdfUrl)}>
            Print labels
          </Button>
        ) : null}
        {offered.map((format) => (
          <DownloadButton
            key={format}
            {...(format === offered[0] && format !== "pdf" ? { variant: "primary" as const } : {})}
            url={format === "pdf" ? pdfUrl : `/app/bulk/${run.id}/print?format=${format}`}
            fileName={printFileName(run.id, format)}
            onError={onError}
          >
            {PRINT_FILES[format].button}
          </DownloadButton>
        ))}
      </InlineStack>
      {notes.map((note) => (
        <Text as="p" tone="subdued" key={note}>
          {note}
        </Text>
      ))}
      {offered.length === 0 && unprintable.length > 0 ? (
        <Text as="p" tone="subdued">
          {`No file can hold these labels: the shipping service did not say their format. Print them from their orders: ${describeLeftOut(unprintable)}.`}
        </Text>
      ) : null}
    </BlockStack>
  );
}
