// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { PRINT_FRAME_ATTRIBUTE, usePrintInPlace } from "./print-in-place";

// Print in place when the browser cannot: the file's refusal in the server's words, and a new tab
// (or, when that is blocked, what to do) where no PDF can be shown inside the page. The printing
// itself needs a browser's PDF viewer: e2e/print-in-place.e2e.ts clicks Print in Chromium.

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}

let container: HTMLDivElement;
let root: Root;
let errors: (string | null)[];
let outcome: string | null | undefined;

function Printer() {
  const { print } = usePrintInPlace((message) => errors.push(message));
  return (
    <button type="button" onClick={() => void print("/app/labels/lbl_1/print").then((o) => (outcome = o))}>
      Print
    </button>
  );
}

async function clickPrint() {
  await act(async () => {
    container.querySelector("button")?.click();
    await vi.waitFor(() => expect(outcome).not.toBeUndefined());
  });
}

beforeAll(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
});

beforeEach(() => {
  errors = [];
  outcome = undefined;
  URL.createObjectURL = vi.fn(() => "blob:http://app.test/label-1");
  URL.revokeObjectURL = vi.fn();
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  act(() => root.render(<Printer />));
});

afterEach(() => {
  act(() => root.unmount());
  document.body.textContent = "";
  vi.unstubAllGlobals();
});

const pdfResponse = () =>
  new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { "Content-Type": "application/pdf" } });

describe("printing a label in place", () => {
  it("says why when the app refuses the file, and prints nothing", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json({ error: { message: "This label was voided: it must not ship." } }, { status: 409 }),
      ),
    );
    const open = vi.spyOn(window, "open");
    await clickPrint();
    expect(outcome).toBeNull();
    expect(errors.at(-1)).toBe("This label was voided: it must not ship.");
    expect(document.querySelector(`[${PRINT_FRAME_ATTRIBUTE}]`)).toBeNull();
    expect(open).not.toHaveBeenCalled();
  });

  it("opens the PDF in a new tab in a browser that shows no PDF inside a page", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => pdfResponse()),
    );
    vi.stubGlobal("navigator", { ...navigator, pdfViewerEnabled: false });
    const open = vi.spyOn(window, "open").mockReturnValue({} as Window);
    await clickPrint();
    expect(outcome).toBe("opened-in-tab");
    expect(open).toHaveBeenCalledWith("blob:http://app.test/label-1", "_blank");
    expect(document.querySelector(`[${PRINT_FRAME_ATTRIBUTE}]`)).toBeNull();
    expect(errors.filter(Boolean)).toEqual([]);
  });

  it("says to download the file when the browser blocks that tab", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => pdfResponse()),
    );
    vi.stubGlobal("navigator", { ...navigator, pdfViewerEnabled: false });
    vi.spyOn(window, "open").mockReturnValue(null);
    await clickPrint();
    expect(outcome).toBeNull();
    expect(errors.at(-1)).toBe("Your browser blocked the tab with the label: use Download, then print the file.");
  });
});
