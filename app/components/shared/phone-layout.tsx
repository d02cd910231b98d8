import { createContext, useContext, useSyncExternalStore } from "react";

import { PHONE_MEDIA_QUERY } from "./phone-width";

// The Orders and Labels lists condense below Polaris's sm breakpoint (IndexTable's `condensed`).
// The width is only known once the page runs, so the server rendered the wide table and a phone
// then rendered it again condensed: twice the work on the slowest devices, and the wide table
// flashed first. The request's own word that it comes from a phone (app/http/phone-hint.ts) sets
// what the server renders and hydration starts from; the width decides after that.
//
// Not Polaris's useBreakpoints: it stores a new object of every breakpoint from a layout effect
// after hydration, so the whole list rendered again synchronously even when the hint was right
// (the longest task of a phone's Orders page load). A store read by useSyncExternalStore renders
// again only when the width says otherwise than the hint, and when it changes.

export const PhoneHintContext = createContext(false);

const PHONE_QUERY = PHONE_MEDIA_QUERY.replace(/^@media\s*/, "");

function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

const readPhoneWidth = () => window.matchMedia(PHONE_QUERY).matches;

/** Whether the screen is phone-sized; null in the server's HTML and the render that hydrates it. */
export function usePhoneWidth(): boolean | null {
  return useSyncExternalStore(subscribeToWidth, readPhoneWidth, () => null);
}

/** Whether to lay out for a phone: the request's hint until the page runs, then the screen's width. */
export function usePhoneLayout(): boolean {
  const phoneHint = useContext(PhoneHintContext);
  return useSyncExternalStore(subscribeToWidth, readPhoneWidth, () => phoneHint);
}
