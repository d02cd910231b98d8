import { useCallback, useEffect, useRef, useState } from "react";

import { fetchAppFile } from "./app-file";

// "Print" without leaving the app: the PDF is fetched from the app's own route, loaded into a
// hidden frame of this page, and that frame's print() opens the system print dialog for the PDF
// alone. The frame holds a blob: URL made by this page, so it is same-origin and the page may
// call its print() — also inside the admin's iframe, where a new tab would leave the admin.

/** The hidden frame's marker, for tests and for finding the last one to replace. */
export const PRINT_FRAME_ATTRIBUTE = "data-print-frame";

// How long a PDF may take to load in the frame before it is opened in a tab instead.
const LOAD_TIMEOUT_MS = 15_000;

type Printed = "printed" | "opened-in-tab";

function loadHiddenFrame(href: string): Promise<HTMLIFrameElement | null> {
  return new Promise((resolve) => {
    const frame = document.createElement("iframe");
    frame.setAttribute(PRINT_FRAME_ATTRIBUTE, "");
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.title = "Label to print";
    // Not display:none: browsers do not lay out (so cannot print) a PDF in an undisplayed frame.
    frame.style.cssText = "position:fixed;right:0;bottom:0;width:0;height:0;border:0;visibility:hidden";
    const timer = setTimeout(() => {
      frame.remove();
      resolve(null);
    }, LOAD_TIMEOUT_MS);
    frame.addEventListener("load", () => {
      clearTimeout(timer);
      resolve(frame);
    });
    frame.src = href;
    document.body.append(frame);
  });
}

/**
 * A new tab with the PDF, ready for the browser's own Print. The fallback, for browsers that show
 * no PDF inside a page (phones: `navigator.pdfViewerEnabled` is false) or whose frame refuses
 * print(); the new tab leaves the admin, which is why it is not the first choice.
 */
function openInTab(href: string): boolean {
  return window.open(href, "_blank") !== null;
}

/** Prints a PDF from one of the app's routes; says what went wrong in the merchant's words. */
export function usePrintInPlace(onError: (message: string | null) => void) {
  const [printing, setPrinting] = useState(false);
  const last = useRef<{ frame: HTMLIFrameElement | null; href: string } | null>(null);
  const forget = useCallback(() => {
    // Only once the next print starts or the screen goes: removing a frame while its print dialog
    // is open cancels the print in some browsers.
    if (!last.current) return;
    last.current.frame?.remove();
    const { href } = last.current;
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
    last.current = null;
  }, []);
  useEffect(() => forget, [forget]);

  const print = useCallback(
    async (url: string): Promise<Printed | null> => {
      setPrinting(true);
      onError(null);
      try {
        const file = await fetchAppFile(url);
        if (!file.ok) {
          onError(file.message);
          return null;
        }
        forget();
        const href = URL.createObjectURL(new Blob([file.blob], { type: "application/pdf" }));
        const held: { frame: HTMLIFrameElement | null; href: string } = { frame: null, href };
        last.current = held;
        if (navigator.pdfViewerEnabled !== false) {
          const frame = await loadHiddenFrame(href);
          held.frame = frame;
          // The screen went (or another print began) while the file loaded: nothing to print here.
          if (last.current !== held) {
            frame?.remove();
            return null;
          }
          const target = frame?.contentWindow;
          if (target) {
            try {
              target.focus();
              target.print();
              return "printed";
            } catch {
              // A browser that will not print a PDF frame from script: the tab below.
            }
          }
        }
        if (openInTab(href)) return "opened-in-tab";
        onError("Your browser blocked the tab with the label: use Download, then print the file.");
        return null;
      } finally {
        setPrinting(false);
      }
    },
    [forget, onError],
  );
  return { print, printing };
}
