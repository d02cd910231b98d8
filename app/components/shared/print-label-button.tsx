import { Button, InlineStack } from "@shopify/polaris";

import { resolveLabelFormat } from "~/bulk/print-files";

import { ShortcutAction } from "../order-page/keyboard-shortcuts";
import { DownloadButton } from "./download-button";
import { usePrintInPlace } from "./print-in-place";

// A bought label's two buttons, wherever a label is offered (the order page, the Labels list):
// Print opens the system print dialog for it without leaving the app, Download saves the file.
// Both take the file from the app's print route, so it is the same file either way: the label as
// a PDF (with its packing slip when the shop prints them), or the ZPL for a thermal printer,
// which is downloaded only (a browser cannot print ZPL).

/** The app's route for one label's file (components/shared/print-in-place.ts explains why not the service's URL). */
export const labelFileUrl = (labelId: string) => `/app/labels/${encodeURIComponent(labelId)}/print`;

type PrintableLabel = { id: string; orderName?: string; labelFormat: string | null; labelUrl: string | null };

export function LabelFileButtons({
  label,
  variant,
  withShortcut = false,
  printButtonId,
  onError,
}: {
  label: PrintableLabel;
  /** "primary" on the order page; "plain" in a table row, where the buttons name their order. */
  variant: "primary" | "plain";
  /** Print answers the P shortcut (the order page's <KeyboardShortcuts>). */
  withShortcut?: boolean;
  /** The Print button's id, for a screen that moves focus to it. */
  printButtonId?: string;
  onError: (message: string | null) => void;
}) {
  const { print, printing } = usePrintInPlace(onError);
  const zpl = resolveLabelFormat(label) === "zpl";
  const url = labelFileUrl(label.id);
  // The route names the file after the order; this is for a server that would not.
  const fileName = `label-${label.id}.${zpl ? "zpl" : "pdf"}`;
  const ofOrder = variant === "plain" && label.orderName ? ` of ${label.orderName}` : "";
  const startPrint = () => void print(url);
  return (
    <InlineStack gap={variant === "plain" ? "200" : "300"} blockAlign="center">
      {zpl ? null : (
        <>
          <Button
            {...(printButtonId ? { id: printButtonId } : {})}
            variant={variant}
            loading={printing}
            onClick={startPrint}
            {...(ofOrder ? { accessibilityLabel: `Print label${ofOrder}` } : {})}
          >
            Print
          </Button>
          {withShortcut ? <ShortcutAction name="print" onPress={startPrint} disabled={printing} /> : null}
        </>
      )}
      <DownloadButton
        url={url}
        fileName={fileName}
        onError={onError}
        {...(variant === "plain" ? { variant: "plain" as const } : {})}
        {...(ofOrder ? { accessibilityLabel: `Download ${zpl ? "ZPL" : "PDF"}, label${ofOrder}` } : {})}
      >
        {zpl ? "Download ZPL" : "Download PDF"}
      </DownloadButton>
    </InlineStack>
  );
}
