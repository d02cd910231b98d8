import { describe, expect, it } from "vitest";

import { checkInternationalPhone } from "./phone";

describe("international phone", () => {
  it("accepts a real number with a country code", () => {
    expect(checkInternationalPhone("+49 30 901820")).toBeNull();
    expect(checkInternationalPhone("+1 (512) 555-0134")).toBeNull();
  });
  it("reports a missing or blank number", () => {
    expect(checkInternationalPhone(undefined)).toBe("missing");
    expect(checkInternationalPhone(null)).toBe("missing");
    expect(checkInternationalPhone("  ")).toBe("missing");
  });
  it("reports a number with fewer than 7 digits as too short", () => {
    expect(checkInternationalPhone("12-34-5")).toBe("too_short");
  });
  it("reports all-zero numbers as placeholders", () => {
    expect(checkInternationalPhone("0000000000")).toBe("placeholder");
    expect(checkInternationalPhone("+44 000 0000 000")).toBe("placeholder");
  });
  it("reports ascending sequences as placeholders, also behind a country code", () => {
    expect(checkInternationalPhone("1234567890")).toBe("placeholder");
    expect(checkInternationalPhone("0123456789")).toBe("placeholder");
    expect(checkInternationalPhone("+1 123-456-7890")).toBe("placeholder");
    expect(checkInternationalPhone("+44 3456789012")).toBe("placeholder");
  });
});
