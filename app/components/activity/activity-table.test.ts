import { describe, expect, it } from "vitest";

import { describeStaff } from "./activity-table";

describe("describeStaff", () => {
  it("says You for the signed-in staff member, A staff member for a colleague, and the app for jobs", () => {
    expect(describeStaff("42", "42")).toBe("You");
    expect(describeStaff("42", "7")).toBe("A staff member");
    expect(describeStaff("42", null)).toBe("A staff member");
    expect(describeStaff(null, "42")).toBe("The app, on its own");
  });
});
