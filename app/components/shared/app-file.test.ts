import { describe, expect, it } from "vitest";

import { readFileName } from "./app-file";

describe("the name a downloaded file is saved under", () => {
  it("is the one the server gave in Content-Disposition", () => {
    expect(readFileName('attachment; filename="label-1001.pdf"')).toBe("label-1001.pdf");
    expect(readFileName("attachment; filename=labels-run_1.zpl")).toBe("labels-run_1.zpl");
  });

  it("is none when the server gave none", () => {
    expect(readFileName(null)).toBeNull();
    expect(readFileName("inline")).toBeNull();
  });
});
