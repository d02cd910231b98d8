// Polaris's smDown (below 490 px), where IndexTable condenses its rows, as a CSS media query: for
// what must be the right size in the server's HTML, before useBreakpoints can tell after
// hydration (anything sized then would move the page).
export const PHONE_MEDIA_QUERY = "@media (max-width: 489.95px)";
