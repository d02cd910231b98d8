import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { PhoneHintContext, usePhoneLayout } from "./phone-layout";

// On the server (no window) the layout is the request's hint: what hydration then starts from.

function Layout() {
  return <p>{usePhoneLayout() ? "condensed" : "table"}</p>;
}

describe("the phone layout in the server's HTML", () => {
  it("is condensed for a request from a phone", () => {
    const html = renderToString(
      <PhoneHintContext.Provider value={true}>
        <Layout />
      </PhoneHintContext.Provider>,
    );
    expect(html).toBe("<p>condensed</p>");
  });

  it("is the wide table otherwise", () => {
    expect(renderToString(<Layout />)).toBe("<p>table</p>");
  });
});
