import { existsSync, readdirSync } from "node:fs";

import { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";

import db from "~/db.server";

// The SQLite adapter as the app opens it (client.server.ts), on the test's database file.

const endpoint = (shop: string, endpointKey: string) => ({
  shop,
  endpointKey,
  serviceEndpointId: "ep_1",
  url: "https://example.test/webhooks",
  secretCiphertext: "c",
  secretIv: "i",
  secretAuthTag: "t",
});

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

describe("the SQLite adapter", () => {
  // Linux shows a process's open files in /proc; CI and this machine are Linux.
  it.runIf(existsSync("/proc/self/fd"))("keeps one connection however many transactions run", async () => {
    const openFiles = () => readdirSync("/proc/self/fd").length;
    await db.$transaction(async (tx) => tx.shippingEventEndpoint.findMany());
    const before = openFiles();
    for (let i = 0; i < 100; i++) {
      await db.$transaction(async (tx) => {
        await tx.shippingEventEndpoint.findMany();
        await tx.shippingEventEndpoint.count();
      });
    }
    // The stock client kept two a transaction (the database and its journal): 200 here.
    expect(openFiles() - before).toBeLessThan(5);
  });

  it("keeps a transaction open after a constraint error, and commits or rolls back all of it", async () => {
    await db.shippingEventEndpoint.create({ data: endpoint("taken.myshopify.com", "key-taken") });
    const attempt = async (tx: Prisma.TransactionClient, shop: string) => {
      await tx.shippingEventEndpoint.create({ data: endpoint(shop, `key-${shop}`) });
      // A duplicate key, caught: SQLite undoes the statement, not the transaction.
      await tx.shippingEventEndpoint
        .create({ data: endpoint("taken.myshopify.com", "key-other") })
        .catch((error: unknown) => {
          if (!isUniqueViolation(error)) throw error;
        });
      await tx.shippingEventEndpoint.update({ where: { shop }, data: { url: "https://example.test/after" } });
    };
    await db.$transaction((tx) => attempt(tx, "kept.myshopify.com"));
    await expect(
      db.$transaction(async (tx) => {
        await attempt(tx, "undone.myshopify.com");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");

    const rows = await db.shippingEventEndpoint.findMany({
      select: { shop: true, url: true },
      orderBy: { shop: "asc" },
    });
    expect(rows).toEqual([
      { shop: "kept.myshopify.com", url: "https://example.test/after" },
      { shop: "taken.myshopify.com", url: "https://example.test/webhooks" },
    ]);
    // And what follows runs on its own again, outside any transaction.
    await db.shippingEventEndpoint.delete({ where: { shop: "kept.myshopify.com" } });
    expect(await db.shippingEventEndpoint.count()).toBe(1);
  });
});
