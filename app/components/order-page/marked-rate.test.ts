import { describe, expect, it } from "vitest";

import type { Rate } from "~/shipping/schemas";

import { pickMarkedRate } from "./marked-rate";

const rate = (id: string, carrier: string, service: string, amount: string, days: number | null = null): Rate => ({
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
  rate("rate_fast", "FEDEX", "FedEx 2Day", "24.10", 2),
  rate("rate_ground", "UPS", "UPS Ground", "11.50", 5),
  rate("rate_cheap", "USPS", "Ground Advantage", "7.95", 4),
];

describe("the marked rate", () => {
  it("is the cheapest when the customer's choice names no rate", () => {
    expect(pickMarkedRate(rates, "Standard Shipping")?.rate_id).toBe("rate_cheap");
    expect(pickMarkedRate(rates, null)?.rate_id).toBe("rate_cheap");
  });

  it("is the rate the customer chose at checkout, as the list names it or by its service", () => {
    expect(pickMarkedRate(rates, "UPS Ground")?.rate_id).toBe("rate_ground");
    expect(pickMarkedRate(rates, "fedex 2day")?.rate_id).toBe("rate_fast");
    expect(pickMarkedRate(rates, "USPS Ground Advantage")?.rate_id).toBe("rate_cheap");
  });

  it("is none when there are no rates", () => {
    expect(pickMarkedRate([], "UPS Ground")).toBeNull();
  });
});
