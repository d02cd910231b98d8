import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Reloads the route's data every `everyMs` while `active` and the tab is visible: the page of a
 * run the worker is busy with follows it without a click. An effect runs in the browser only,
 * never in the web process.
 */
export function usePolling(active: boolean, everyMs: number): void {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, revalidator]);
}
