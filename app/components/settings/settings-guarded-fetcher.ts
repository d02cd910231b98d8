import { useAppBridge } from "@shopify/app-bridge-react";
import { useCallback, useEffect, useRef } from "react";
import { useFetcher } from "react-router";

import type { SettingsActionData } from "./settings-action-data";

/**
 * A fetcher that sends one submission at a time. `busy` disables the buttons, but a double click
 * can land before React re-renders; the ref refuses the second submit in that gap. A success
 * shows its message as a toast.
 */
export function useGuardedFetcher() {
  // Unkeyed: each form (and each opening of a modal) starts without a previous answer.
  const fetcher = useFetcher<SettingsActionData>();
  const shopify = useAppBridge();
  const inFlight = useRef(false);
  const lastToasted = useRef<SettingsActionData | undefined>(undefined);

  useEffect(() => {
    if (fetcher.state !== "idle") return;
    inFlight.current = false;
    const data = fetcher.data;
    if (data && "ok" in data && lastToasted.current !== data) {
      lastToasted.current = data;
      // The offline demo's App Bridge stand-in may have no toast: the confirmation is a nicety.
      shopify.toast?.show?.(data.message);
    }
  }, [fetcher.state, fetcher.data, shopify]);

  const submit = useCallback(
    (fields: Record<string, string>) => {
      if (inFlight.current) return;
      inFlight.current = true;
      fetcher.submit(fields, { method: "post" });
    },
    [fetcher],
  );

  return { fetcher, submit, busy: fetcher.state !== "idle", data: fetcher.data };
}
