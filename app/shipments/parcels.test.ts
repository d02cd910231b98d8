import { describe, expect, it } from "vitest";

import { DEFAULT_LABEL_SETTINGS } from "~/settings/settings";

import { packIntoBoxes, toGrams, unitToGrams } from "./parcels";

const box = DEFAULT_LABEL_SETTINGS.box; // 50 lb, no tare

describe("packIntoBoxes", () => {
  it("puts a light shipment in one box with the default dimensions", () => {
    const { parcels, oversized } = packIntoBoxes(
      [
        { label: "mug", grams: 450 },
        { label: "mug", grams: 450 },
      ],
      box,
    );
    expect(parcels).toEqual([
      { weight: 1.99, length: 12, width: 10, height: 6, weight_unit: "lb", dimension_unit: "in" },
    ]);
    expect(oversized).toEqual([]);
  });

  it("splits 77.5 lb into two boxes that each stay under a 50 lb limit", () => {
    const kettlebell = toGrams({ value: 35, unit: "POUNDS" });
    const skillet = toGrams({ value: 7.5, unit: "POUNDS" });
    const { parcels } = packIntoBoxes(
      [
        { label: "kb", grams: kettlebell },
        { label: "kb", grams: kettlebell },
        { label: "skillet", grams: skillet },
      ],
      box,
    );
    expect(parcels.map((p) => p.weight)).toEqual([42.5, 35]);
    expect(parcels.every((p) => p.weight <= 50)).toBe(true);
  });

  it("adds the tare weight to every box and counts it against the limit", () => {
    const { parcels } = packIntoBoxes(
      [
        { label: "a", grams: toGrams({ value: 4, unit: "POUNDS" }) },
        { label: "b", grams: toGrams({ value: 4, unit: "POUNDS" }) },
      ],
      { ...box, maxWeight: 8, tareWeight: 1 },
    );
    expect(parcels.map((p) => p.weight)).toEqual([5, 5]);
  });

  it("reports a unit heavier than the box limit instead of hiding it", () => {
    const { parcels, oversized } = packIntoBoxes(
      [{ label: "anvil", grams: toGrams({ value: 60, unit: "POUNDS" }) }],
      box,
    );
    expect(oversized.map((u) => u.label)).toEqual(["anvil"]);
    expect(parcels).toHaveLength(1);
    expect(parcels[0]?.weight).toBe(60);
  });
});

describe("weights in the shipping service's units", () => {
  it("convert oz, lb, g and kg to grams, and refuse any other unit", () => {
    expect(unitToGrams(1, "lb")).toBeCloseTo(453.59237);
    expect(unitToGrams(16, "oz")).toBeCloseTo(453.59237);
    expect(unitToGrams(2, "kg")).toBe(2000);
    expect(unitToGrams(5, "g")).toBe(5);
    expect(unitToGrams(1, "stone")).toBeNull();
  });
});
