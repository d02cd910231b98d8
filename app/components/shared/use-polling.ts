import { useEffect, useRef } from "react";
import { useFetcher, useRevalidator } from "react-router";

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

/**
 * Reloads the route's data when a cheap check says it changed: every `everyMs` while the tab is
 * visible, loads `url` (a loader answering `{ version }`) and revalidates when the version differs
 * from `current`, the one the route's data was read with. The expensive loader runs only on a
 * change, not on every tick. An answer to a check sent before the route's data last arrived is
 * ignored: it may predate that data and would reload it for nothing.
 */
export function useRevalidateWhenChanged(url: string, current: string, everyMs: number): void {
  const revalidator = useRevalidator();
  const check = useFetcher<{ version: string }>();
  const loadedAt = useRef(Date.now());
  const sentAt = useRef(0);
  useEffect(() => {
    loadedAt.current = Date.now();
  }, [current]);

  // The timer reads the latest fetcher and revalidator through a ref, so re-renders (typing in
  // the search box) do not restart it and push the next check further out.
  const latest = useRef({ check, revalidator });
  latest.current = { check, revalidator };
  useEffect(() => {
    const timer = setInterval(() => {
      const { check: fetcher, revalidator: reloader } = latest.current;
      if (fetcher.state !== "idle" || reloader.state !== "idle" || document.visibilityState !== "visible") return;
      sentAt.current = Date.now();
      fetcher.load(url);
    }, everyMs);
    return () => clearInterval(timer);
  }, [url, everyMs]);

  const seen = check.data?.version;
  useEffect(() => {
    if (seen === undefined || seen === current || sentAt.current < loadedAt.current) return;
    if (revalidator.state === "idle") revalidator.revalidate();
  }, [seen, current, revalidator]);
}
