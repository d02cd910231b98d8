import { describe, expect, it } from "vitest";

import { fieldError, formError } from "./settings-action-data";

const refused = {
  error: {
    code: "INVALID_SETTINGS",
    message: "Some fields need attention.",
    fields: [
      { path: "name", message: "Name the box" },
      { path: "id", message: "Required" },
    ],
  },
};

describe("settings form errors", () => {
  it("puts a field's message next to that field", () => {
    expect(fieldError(refused, "name")).toBe("Name the box");
    expect(fieldError(refused, "width")).toBeUndefined();
  });

  it("shows a banner only for what no field of the form can show", () => {
    expect(formError(refused, ["name", "id"])).toBeNull();
    expect(formError(refused, ["name"])).toBe("Some fields need attention. id: Required");
    const noFields = { error: { code: "BOX_PRESET_NOT_FOUND", message: "That box no longer exists.", fields: [] } };
    expect(formError(noFields, ["name"])).toBe("That box no longer exists.");
  });

  it("shows nothing after a success", () => {
    const saved = { ok: true as const, intent: "createBox" as const, message: "Box added" };
    expect([formError(saved, []), fieldError(saved, "name")]).toEqual([null, undefined]);
  });
});
