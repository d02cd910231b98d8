import { type ReactNode, useEffect, useRef } from "react";

// A Polaris DataTable scrolls sideways inside its own container when its columns are wider than
// the screen (a phone at 390 px). That container is a scroll region a keyboard cannot reach and a
// screen reader cannot name (axe: scrollable-region-focusable, serious). Polaris offers no prop for
// it, so once the table is on the page its container is made a named, focusable region: Tab
// reaches it, the arrow keys scroll it, and it reads as the table it holds.

const SCROLL_CONTAINER = ".Polaris-DataTable__ScrollContainer";

export function NamedScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const region of ref.current?.querySelectorAll<HTMLElement>(SCROLL_CONTAINER) ?? []) {
      region.setAttribute("role", "region");
      region.setAttribute("aria-label", label);
      region.tabIndex = 0;
    }
  });
  return <div ref={ref}>{children}</div>;
}
