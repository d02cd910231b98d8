import { useBreakpoints } from "@shopify/polaris";
import { createContext, useContext } from "react";

// The Orders and Labels lists condense below Polaris's sm breakpoint (IndexTable's `condensed`).
// useBreakpoints only knows the width after hydration, so the server rendered the wide table and
// a phone then rendered it again condensed: twice the work on the slowest devices, and the wide
// table flashed first. The request's own word that it comes from a phone (app/http/phone-hint.ts)
// sets what the server renders and hydration starts from; the width still decides after that.

export const PhoneHintContext = createContext(false);

/** Whether to lay out for a phone: the request's hint until the page runs, then the screen's width. */
export function usePhoneLayout(): boolean {
  const phoneHint = useContext(PhoneHintContext);
  return useBreakpoints({ defaults: { smDown: phoneHint } }).smDown;
}
