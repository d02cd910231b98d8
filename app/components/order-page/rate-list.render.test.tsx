import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { Rate } from "~/shipping/schemas";

import { CustomerChoiceNote, expectedRateCount, RateList, RateListSkeleton } from "./rate-list";

// The rates as the merchant reads them: which rate carries which mark, and which one C chooses.

const render = (element: ReactNode) => renderToString(<AppProvider i18n={en}>{element}</AppProvider>);

const rate = (id: string, carrier: string, service: string, amount: string, days: number): Rate => ({
  rate_id: id,
  service_code: service.toLowerCase().replace(/ /g, "_"),
  carrier,
  service,
  amount,
  currency: "USD",
  delivery_days: days,
  ship_date: "2026-01-05",
  expires_at: "2026-01-06T00:00:00Z",
});

const rates = [
  rate("rate_express", "USPS", "Priority Mail Express", "31.20", 1),
  rate("rate_ground", "UPS", "UPS Ground", "11.50", 4),
  rate("rate_cheap", "USPS", "Ground Advantage", "7.95", 5),
];

const PHONE_MARKS = '<div class="rate-row-phone-marks">';

/** The HTML without each row's phone-only line of marks (hidden by CSS at wider widths). */
function withoutPhoneMarks(html: string): string {
  let out = html;
  for (let start = out.indexOf(PHONE_MARKS); start >= 0; start = out.indexOf(PHONE_MARKS)) {
    // Its matching </div>: the line holds Polaris's own divs.
    let depth = 0;
    const tags = /<div\b[^>]*>|<\/div>/g;
    tags.lastIndex = start;
    for (let tag = tags.exec(out); tag; tag = tags.exec(out)) {
      depth += tag[0] === "</div>" ? -1 : 1;
      if (depth === 0) {
        out = out.slice(0, start) + out.slice(tags.lastIndex);
        break;
      }
    }
  }
  return out;
}

/** The marks each row shows on a phone, in the order shown. */
function phoneMarks(html: string): string[] {
  return [...html.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) => {
    const line = /<div class="rate-row-phone-marks">(.*?)<\/div><\/div>/.exec(m[1] ?? "")?.[1] ?? "";
    return [...line.matchAll(/<span class="Polaris-Text[^"]*"[^>]*>([^<]+)<\/span>/g)]
      .map((t) => (t[1] ?? "").replace(/&#x27;/g, "'"))
      .filter((text) => !/^(Success|Info|Attention)$/.test(text))
      .join(" + ");
  });
}

/** Each row's text as a wide screen shows it, in the order shown, tags removed. */
function rows(html: string): string[] {
  return [...withoutPhoneMarks(html).matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) =>
    (m[1] ?? "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;/g, "'")
      // Polaris says a badge's tone to screen readers; the marks are the words after it.
      .replace(/\b(Success|Info|Attention) /g, "")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

const list = (customerChose: string | null) =>
  render(
    <RateList rates={rates} customerChose={customerChose} busyRateId={null} disabled={false} onChoose={() => {}} />,
  );

describe("the rate list", () => {
  it("lists the cheapest first, marks the cheapest, the fastest and the customer's choice, and says C chooses it", () => {
    const shown = rows(list("UPS Ground"));
    expect(shown).toHaveLength(3);
    expect(shown[0]).toMatch(/^USPS Ground Advantage Cheapest 5 days · by Mon, Jan 12 \$7\.95 Choose$/);
    expect(shown[1]).toMatch(/^UPS Ground Customer's choice 4 days · by Fri, Jan 9 Press C \$11\.50 Choose$/);
    expect(shown[2]).toMatch(/^USPS Priority Mail Express Fastest 1 day · by Tue, Jan 6 \$31\.20 Choose$/);
  });

  it("gives the marks a line of their own across the row on a phone, two marks of one rate included", () => {
    // The customer chose the cheapest: its row carries two marks, which at 360 px did not fit the
    // column beside the price (rate-list.tsx); across the row they do.
    const html = list("Ground Advantage");
    expect(phoneMarks(html)).toEqual(["Cheapest + Customer's choice", "", "Fastest"]);
    expect(rows(html)[0]).toMatch(/^USPS Ground Advantage Cheapest Customer's choice 5 days/);
    // Shown only within the phone media query; the wide marks hidden there.
    expect(html).toMatch(
      /\.rate-row-phone-marks \{ display: none; \}\s*@media \(max-width: 489\.95px\) \{[^}]*\}[^}]*\.rate-row-key-hint, \.rate-row-wide-marks \{ display: none; \}\s*\.rate-row-phone-marks \{ display: block; \}/,
    );
  });

  it("has C choose the cheapest when no rate is the customer's choice, and names the key to screen readers", () => {
    const html = list("Standard Shipping");
    expect(html).not.toContain("Customer&#x27;s choice");
    expect(rows(html)[0]).toContain("Press C");
    expect(rows(html).filter((r) => r.includes("Press C"))).toHaveLength(1);
    expect(html).toContain('aria-label="Choose USPS Ground Advantage for $7.95 (shortcut C)"');
  });
});

describe("what the customer chose and paid", () => {
  it("names the method and the amount paid for shipping", () => {
    const text = render(
      <CustomerChoiceNote method="Standard Shipping" paid={{ amount: "8.95", currency: "USD" }} />,
    ).replace(/<[^>]+>/g, "");
    expect(text).toBe("The customer chose Standard Shipping at checkout and paid $8.95 for shipping.");
  });

  it("says what it knows, and nothing when Shopify says neither", () => {
    expect(render(<CustomerChoiceNote method="Express" paid={null} />).replace(/<[^>]+>/g, "")).toBe(
      "The customer chose Express at checkout.",
    );
    expect(render(<CustomerChoiceNote method={null} paid={null} />)).not.toContain("customer");
  });
});

describe("while rates load", () => {
  it("holds as many rows as the shipment usually gets: one for several boxes, four abroad, eight at home", () => {
    const us = { country: "US" };
    expect(expectedRateCount({ from_address: us, to_address: us })).toBe(8);
    expect(expectedRateCount({ from_address: us, to_address: { country: "DE" } })).toBe(4);
    expect(expectedRateCount({ from_address: us, to_address: us, parcels: [{}, {}] })).toBe(1);
    const html = render(<RateListSkeleton rows={3} />);
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain("Loading rates");
  });
});

describe("Buy on a rate", () => {
  it("offers each rate's Buy beside its Choose, named with the service and the price", () => {
    const html = render(
      <RateList
        rates={rates}
        customerChose={null}
        busyRateId={null}
        disabled={false}
        onChoose={() => {}}
        onBuy={() => {}}
      />,
    );
    expect(rows(html)[0]).toMatch(/\$7\.95 Buy Choose$/);
    expect(html).toContain('aria-label="Buy USPS Ground Advantage for $7.95"');
    expect(html.match(/aria-label="Buy /g)).toHaveLength(3);
    // On a phone the two buttons stack beside the price, within the row's height.
    expect(html).toMatch(/@media \(max-width: 489\.95px\) \{[^]*\.rate-row-buttons \{ flex-direction: column;/);
  });

  it("offers no Buy where buying is not a rate's (a draft being edited)", () => {
    expect(list(null)).not.toContain('aria-label="Buy ');
  });
});
