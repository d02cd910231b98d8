// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { setUpHydration } from "../../../test/helpers/hydration";
import { fakeScreenWidth } from "../../../test/helpers/screen-width";
import { ByWidth } from "./by-width";

// The bulk run's items on a phone: the server's HTML must already be the phone's layout (a media
// query chooses), and hydration must never show the wide one alone before settling on the phone's.

const screen = fakeScreenWidth(1440);
const hydrateInto = setUpHydration();

const layouts = <ByWidth phone={<p>stacked</p>} wide={<p>table</p>} />;

/** The server's HTML, which says nothing in the console. */
function renderOnServer(): string {
  const said: unknown[] = [];
  const original = console.error;
  console.error = (message: unknown) => said.push(message);
  try {
    return renderToString(layouts);
  } finally {
    console.error = original;
    expect(said).toEqual([]);
  }
}

/** Hydrates the server's HTML, recording what each commit left in the page. */
function hydrate(): string[][] {
  const container = document.createElement("div");
  container.innerHTML = renderOnServer();
  document.body.append(container);
  const seen: string[][] = [texts(container)];
  const observer = new MutationObserver(() => seen.push(texts(container)));
  observer.observe(container, { childList: true, subtree: true, characterData: true });
  hydrateInto(container, layouts, { onRecoverableError: (error) => seen.push([`error: ${String(error)}`]) });
  observer.disconnect();
  seen.push(texts(container));
  return seen;
}

const texts = (container: Element) => [...container.querySelectorAll("p")].map((p) => p.textContent ?? "");

describe("one layout by the screen's width", () => {
  it("sends both in the server's HTML, the phone's shown by a media query", () => {
    const html = renderOnServer();
    expect(html).toContain("stacked");
    expect(html).toContain("table");
    expect(html).toMatch(/@media \(max-width: 489\.95px\)/);
  });

  it("on a phone keeps only the stacked list once hydrated, never the table alone", () => {
    screen.width = 390;
    const seen = hydrate();
    expect(seen.at(-1)).toEqual(["stacked"]);
    expect(seen.filter((texts) => texts.join() === "table")).toEqual([]);
    expect(seen.flat().filter((text) => text.startsWith("error"))).toEqual([]);
  });

  it("on a wide screen keeps only the table once hydrated", () => {
    screen.width = 1440;
    expect(hydrate().at(-1)).toEqual(["table"]);
  });
});
