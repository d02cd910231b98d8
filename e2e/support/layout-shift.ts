import type { Frame } from "playwright-core";

// Layout shifts as Chrome reports them to the page (the entries CLS adds up), in one frame:
// observed from the frame's start (buffered), each with what moved, for a test to sum the ones
// the merchant's input did not cause and to name them when it fails.

export type Shift = { value: number; hadRecentInput: boolean; sources: string[] };

export async function observeLayoutShifts(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const shifts: Shift[] = [];
    (window as unknown as { __shifts: Shift[] }).__shifts = shifts;
    const name = (node: Node | null) =>
      node instanceof Element
        ? `${node.tagName.toLowerCase()}.${String(node.className).split(" ")[0] ?? ""} "${(node.textContent ?? "").slice(0, 30)}"`
        : String(node?.nodeName);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      }[]) {
        shifts.push({
          value: entry.value,
          hadRecentInput: entry.hadRecentInput,
          sources: entry.sources.map((s) => `${name(s.node)} ${s.previousRect.y}→${s.currentRect.y}`),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

export const readShifts = (frame: Frame) => frame.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);

/** The shifts the merchant's input did not cause (what CLS counts), and their sum. */
export async function unexpectedShifts(frame: Frame): Promise<{ total: number; shifts: Shift[] }> {
  const shifts = (await readShifts(frame)).filter((s) => !s.hadRecentInput);
  return { total: shifts.reduce((sum, s) => sum + s.value, 0), shifts };
}
