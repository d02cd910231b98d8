// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { setUpHydration } from "../../../test/helpers/hydration";
import { fakeScreenWidth } from "../../../test/helpers/screen-width";
import { PhoneHintContext, usePhoneLayout } from "./phone-layout";

// A long list under usePhoneLayout renders once when it hydrates, if the request's hint was right:
// rendering it again at once was the longest task of a phone's Orders page load.

const screen = fakeScreenWidth(1440);
const hydrateInto = setUpHydration();
let renders = 0;

function List() {
  renders += 1;
  return <p>{usePhoneLayout() ? "condensed" : "table"}</p>;
}

/** Hydrates the server's HTML for a request with `hint` on a screen of `width`; what it shows. */
function hydrateOn(width: number, hint: boolean): string {
  const page = (
    <PhoneHintContext.Provider value={hint}>
      <List />
    </PhoneHintContext.Provider>
  );
  const container = document.createElement("div");
  container.innerHTML = renderToString(page);
  document.body.append(container);
  screen.width = width;
  renders = 0;
  hydrateInto(container, page);
  return container.textContent ?? "";
}

describe("the phone layout as the page hydrates", () => {
  it("renders once on a phone whose request said so", () => {
    expect(hydrateOn(390, true)).toBe("condensed");
    expect(renders).toBe(1);
  });

  it("renders once on a wide screen whose request said so", () => {
    expect(hydrateOn(1440, false)).toBe("table");
    expect(renders).toBe(1);
  });

  it("follows the screen when the request's hint was wrong", () => {
    expect(hydrateOn(390, false)).toBe("condensed");
    expect(hydrateOn(1440, true)).toBe("table");
  });
});
