import { act, type ReactNode } from "react";
import { hydrateRoot, type HydrationOptions, type Root } from "react-dom/client";
import { afterEach, beforeAll } from "vitest";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}

/**
 * For a jsdom test file: hydrates server HTML already in a container as a browser does, inside
 * act(); every root is unmounted and the page emptied after each test. Call at the file's top.
 */
export function setUpHydration(): (container: Element, element: ReactNode, options?: HydrationOptions) => void {
  const roots: Root[] = [];
  beforeAll(() => {
    globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  });
  afterEach(() => {
    for (const root of roots.splice(0)) act(() => root.unmount());
    document.body.textContent = "";
  });
  return (container, element, options) => {
    act(() => {
      roots.push(hydrateRoot(container, element, options));
    });
  };
}
