import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { findLabel } from "~/labels/label-repository.server";
import { GROUND_SERVICE_CODES } from "~/shipping/services";

import { createEmulators, quoteSeededOrder, TEST_LABEL_SHOP as SHOP } from "../../test/helpers/labels";
import { checkForDraft, checkForQuote } from "./check-shipment";
import { draftShipment, quoteShipment } from "./draft-shipment.server";

// Insurance, signature and lithium batteries through the pipeline, priced and filtered by the
// shipping emulator as the contract's "Label options" says.

async function quoteWith(options: Record<string, unknown> | undefined) {
  const emulators = createEmulators();
  const quoted = await quoteSeededOrder(emulators, "#1001");
  const request = { ...quoted.prefilled.request, ...(options ? { options } : {}) };
  const forQuote = checkForQuote(request);
  if (!forQuote.ok) throw new Error(forQuote.error.logMessage);
  const rates = await quoteShipment(quoted.client, forQuote.value);
  if (!rates.ok) throw new Error(rates.error.logMessage);
  return { ...quoted, request, rates: rates.value.rates };
}

const priceOf = (rates: { service_code: string; amount: string }[], code: string) =>
  Number(rates.find((r) => r.service_code === code)?.amount);

describe("label options", () => {
  it("are quoted: insurance and a signature priced in, lithium batteries by ground only", async () => {
    const plain = await quoteWith(undefined);
    const insured = await quoteWith({ insurance: { amount: "250.00", currency: "USD" }, signature: "adult" });
    const code = "svc_usps_ground_advantage";
    // 1% of $250 and $6.95 for an adult signature.
    expect(priceOf(insured.rates, code) - priceOf(plain.rates, code)).toBeCloseTo(2.5 + 6.95, 2);

    const lithium = await quoteWith({ hazmat: "lithium_batteries" });
    expect(lithium.rates.length).toBeGreaterThan(0);
    expect(lithium.rates.every((r) => GROUND_SERVICE_CODES.includes(r.service_code))).toBe(true);
    expect(plain.rates.some((r) => !GROUND_SERVICE_CODES.includes(r.service_code))).toBe(true);
  });

  it("are drafted with the rate quoted for them and kept on the label", async () => {
    const options = { insurance: { amount: "120.00", currency: "USD" }, signature: "standard" };
    const quoted = await quoteWith(options);
    const rate = quoted.rates[0];
    if (!rate) throw new Error("no rate");
    const ready = checkForDraft(quoted.facts, { request: quoted.request, quote: rate, now: new Date() });
    if (!ready.ok) throw new Error(ready.error.logMessage);
    const draft = await draftShipment({ db, shop: SHOP, shipping: quoted.client }, ready.value);
    if (!draft.ok) throw new Error(draft.error.logMessage);
    const label = await findLabel(db, SHOP, draft.value.label.id);
    expect((label?.request as { options?: unknown }).options).toEqual(options);
    expect(label?.quotedCents).toBe(Math.round(Number(rate.amount) * 100));
  });

  it("name a wrong value at its field before anything is sent", () => {
    const checked = checkForQuote({
      from_address: { name: "A", street1: "1 Main St", city: "Brooklyn", state: "NY", zip: "11201", country: "US" },
      to_address: { name: "B", street1: "2 Main St", city: "Austin", state: "TX", zip: "78701", country: "US" },
      parcel: { weight: 10, length: 10, width: 8, height: 4 },
      options: { insurance: { amount: "9000.00", currency: "USD" } },
    } as never);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.error.problems?.map((p) => p.path)).toContain("options.insurance.amount");
  });
});
