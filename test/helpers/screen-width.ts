// A screen of a width the test sets, as matchMedia answers width queries (jsdom has no layout).
// Installs window.matchMedia; change `width` before rendering.
export function fakeScreenWidth(width: number): { width: number } {
  const screen = { width };
  const pixels = (query: string, edge: "min" | "max") => {
    const found = new RegExp(`${edge}-width:\\s*([\\d.]+)(px|rem|em)`).exec(query);
    return found ? Number(found[1]) * (found[2] === "px" ? 1 : 16) : Number.NaN;
  };
  window.matchMedia = (query: string) => {
    const min = pixels(query, "min");
    const max = pixels(query, "max");
    return {
      matches: (Number.isNaN(min) || screen.width >= min) && (Number.isNaN(max) || screen.width <= max),
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    } as MediaQueryList;
  };
  return screen;
}
