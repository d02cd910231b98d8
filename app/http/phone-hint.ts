// Whether a request comes from a phone, as its browser says so: Chromium sends the client hint
// `Sec-CH-UA-Mobile: ?1` on every request, and phone browsers (Safari on iOS, Chrome on Android,
// the Shopify app's web view) put "Mobi" in their user agent; tablets do not. Only a first guess
// for the server's HTML: the screen's real width takes over once the page runs.
export function isPhoneRequest(headers: Headers): boolean {
  const mobileHint = headers.get("sec-ch-ua-mobile");
  if (mobileHint !== null) return mobileHint.trim() === "?1";
  return /Mobi/.test(headers.get("user-agent") ?? "");
}
