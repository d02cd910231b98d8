import { describe, expect, it } from "vitest";

import { createGroupCommit } from "./group-commit";

// Items that arrive while a batch is written share the next one; a failed batch is written again
// one item at a time, so only the item that fails is failed.

describe("createGroupCommit", () => {
  it("writes what arrives meanwhile as the next batch", async () => {
    const batches: string[][] = [];
    const write = createGroupCommit<string, string>({
      writeBatch: async (items) => {
        batches.push([...items]);
        return items.map((item) => item.toUpperCase());
      },
    });
    expect(await Promise.all(["a", "b", "c", "d"].map(write))).toEqual(["A", "B", "C", "D"]);
    expect(batches).toEqual([["a"], ["b", "c", "d"]]);
  });

  it("writes a failed batch's items alone: only the failing one fails", async () => {
    const alone: string[] = [];
    const write = createGroupCommit<string, string>({
      writeBatch: async (items) => {
        if (items.includes("bad")) throw new Error("batch failed");
        return [...items];
      },
      writeAlone: async (item) => {
        alone.push(item);
        if (item === "bad") throw new Error(`${item} failed`);
        return item;
      },
    });
    const outcomes = await Promise.allSettled(["first", "x", "bad", "y"].map(write));
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message))).toEqual([
      "first",
      "x",
      "bad failed",
      "y",
    ]);
    expect(alone).toEqual(["x", "bad", "y"]);
  });

  it("fails a lone item's batch without writing it again", async () => {
    let writes = 0;
    const write = createGroupCommit<string, string>({
      writeBatch: async () => {
        writes += 1;
        throw new Error("failed");
      },
    });
    await expect(write("only")).rejects.toThrow("failed");
    expect(writes).toBe(1);
  });

  it("writes a lone item alone when told to", async () => {
    const write = createGroupCommit<string, string>({
      writeBatch: async () => ["batch"],
      writeAlone: async () => "alone",
      batchOne: false,
    });
    expect(await write("x")).toBe("alone");
  });
});
