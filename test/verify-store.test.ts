import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { SPENDING_SCOPES } from "~/http/spending-permission.server";

import { signSessionToken } from "../emulator/shopify/auth";
import { type ShopifyAdminEmulatorServer, startShopifyAdminEmulatorServer } from "../emulator/shopify/server";
import { main, runVerifyStore, type VerifyStoreIo } from "../scripts/verify-store";
import { parseVerifyStoreOptions } from "../scripts/verify-store/options";
import { SPENDING_SCOPE } from "../scripts/verify-store/staff-scope";
import type { CheckName, Verdict } from "../scripts/verify-store/verdict";
import { ROOT } from "./setup/database";

// scripts/verify-store.ts against the repo's Shopify emulator, which plays the store, its OAuth
// server and (through signSessionToken) the admin that signs session tokens. The emulator is built
// on the readings the script checks on a real store, so against it every settled check passes;
// the failures are produced by feeding the script what a store answering otherwise would send.

const app = {
  apiKey: "verify-key",
  apiSecret: "verify-secret",
  appUrl: "http://127.0.0.1:9",
  scopes: [
    "read_orders",
    "read_merchant_managed_fulfillment_orders",
    "write_merchant_managed_fulfillment_orders",
    "write_fulfillments",
    "read_products",
    "write_inventory",
    "read_locations",
  ],
};
const shop = "demo-shop.myshopify.com";
const env = { SHOPIFY_SHOP: shop, SHOPIFY_API_KEY: app.apiKey, SHOPIFY_API_SECRET: app.apiSecret };
const HOUR = 3_600_000;

let running: ShopifyAdminEmulatorServer;
let adminToken: string;
let scratch: string;

beforeAll(async () => {
  running = await startShopifyAdminEmulatorServer({ port: 0, generatedOrders: 0, app });
  scratch = mkdtempSync(join(tmpdir(), "verify-store-"));
  // Sam may see orders but not fulfil them; Kim may fulfil (the control). Registered over HTTP,
  // as a developer would on the loopback emulator.
  for (const [id, firstName, permissions] of [
    ["501", "Sam", ["orders", "products"]],
    ["502", "Kim", ["orders", "fulfill_and_ship_orders"]],
  ] as const) {
    const registered = await fetch(`${running.url}/__emulator/staff`, {
      method: "POST",
      body: JSON.stringify({
        id,
        firstName,
        lastName: "Staff",
        email: `${firstName}@example.com`,
        accountOwner: false,
        permissions,
      }),
    });
    expect(registered.status).toBe(204);
  }
});

afterAll(async () => {
  await running.close();
  rmSync(scratch, { recursive: true, force: true });
});

beforeEach(async () => {
  running.emulator.reset();
  // The app's offline token, as token exchange issues it (what SHOPIFY_ADMIN_TOKEN holds).
  const exchanged = await fetch(`${running.url}/admin/oauth/access_token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_id: app.apiKey,
      client_secret: app.apiSecret,
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token: signSessionToken(app, shop),
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
    }),
  });
  adminToken = String(((await exchanged.json()) as { access_token: unknown }).access_token);
});

async function verify(argv: string[], io: Partial<VerifyStoreIo> = {}, extraEnv: Record<string, string> = {}) {
  const lines: string[] = [];
  const options = parseVerifyStoreOptions(["--admin-origin", running.url, ...argv], {
    ...env,
    SHOPIFY_ADMIN_TOKEN: adminToken,
    ...extraEnv,
  });
  const run = await runVerifyStore(options, { out: (line) => lines.push(line), ...io });
  return { ...run, lines, output: lines.join("\n") };
}

const only = (verdicts: readonly Verdict[], check: CheckName) => {
  const found = verdicts.find((v) => v.check === check);
  if (!found) throw new Error(`no ${check} verdict`);
  return found;
};

const sessionTokenFor = (userId: string) => signSessionToken(app, shop, { userId });

describe("the staff-scope check (ADR 13)", () => {
  it("passes when the online token drops the fulfillment-order write scope for a staff member without the permission and keeps it for one with it", async () => {
    const run = await verify([
      "--check",
      "staff-scope",
      "--restricted-session-token",
      sessionTokenFor("501"),
      "--permitted-session-token",
      sessionTokenFor("502"),
    ]);
    const v = only(run.verdicts, "staff-scope");
    expect(v.status).toBe("PASS");
    expect(v.summary).toContain("user 501 (Sam Staff)");
    expect(v.details.join("\n")).toContain(
      "control: user 502 (Kim Staff) keeps write_merchant_managed_fulfillment_orders",
    );
    expect(run.exitCode).toBe(0);
    expect(run.lines.at(-1)).toBe("RESULT PASS (1 passed, 0 failed, 0 need a human)");
  });

  it("never prints the online access token it was given", async () => {
    const run = await verify(["--check", "staff-scope", "--restricted-session-token", sessionTokenFor("501")]);
    expect(run.output).not.toMatch(/shpua_/);
    expect(run.output).not.toContain(sessionTokenFor("501").slice(20, 60));
  });

  it("asks for a staff member's token when it is given the store owner's", async () => {
    const run = await verify(["--check", "staff-scope", "--restricted-session-token", sessionTokenFor("109640245")]);
    expect(only(run.verdicts, "staff-scope")).toMatchObject({ status: "NEEDS-HUMAN" });
    expect(only(run.verdicts, "staff-scope").summary).toContain("store owner");
  });

  it("asks for a fresh session token once the one it was given has expired, without calling Shopify", async () => {
    const issuedAt = Date.parse("2026-01-05T10:00:00Z");
    const calls: string[] = [];
    const run = await verify(
      [
        "--check",
        "staff-scope",
        "--restricted-session-token",
        signSessionToken(app, shop, { userId: "501", now: issuedAt }),
      ],
      {
        now: () => issuedAt + 5 * 60_000,
        fetch: (input, init) => {
          calls.push(input);
          return fetch(input, init);
        },
      },
    );
    expect(only(run.verdicts, "staff-scope")).toMatchObject({ status: "NEEDS-HUMAN" });
    expect(only(run.verdicts, "staff-scope").summary).toContain("expired 240 s ago");
    expect(calls).toEqual([]);
  });

  it("fails when a captured online token answer kept the write scope for a staff member without the permission", async () => {
    const file = join(scratch, "kept.json");
    writeFileSync(
      file,
      JSON.stringify({
        access_token: "shpua_captured",
        scope: app.scopes.join(","),
        associated_user_scope: "read_orders,write_merchant_managed_fulfillment_orders",
        associated_user: { id: 501, first_name: "Sam", last_name: "Staff", account_owner: false },
      }),
    );
    const run = await verify(["--check", "staff-scope", "--online-token-response", file]);
    expect(only(run.verdicts, "staff-scope")).toMatchObject({ status: "FAIL" });
    expect(run.exitCode).toBe(1);
    expect(run.lines.at(-1)).toBe("RESULT FAIL (0 passed, 1 failed, 0 need a human)");
  });

  it("reads the same scope as the app's spend guard", () => {
    expect([SPENDING_SCOPE]).toEqual([...SPENDING_SCOPES]);
  });
});

describe("the print-auth check (ADR 12)", () => {
  const printPath = "/api/extensions/print/pdf?orders=gid%3A%2F%2Fshopify%2FOrder%2F1";

  it("passes when the print src request carries the admin's session token, and answers it with a PDF", async () => {
    let answer: Promise<Response> | undefined;
    const run = await verify(["--check", "print-auth", "--print-listen", "0", "--print-wait", "10"], {
      onPrintListenerReady: (url) => {
        answer = fetch(`${url}${printPath}`, { headers: { Authorization: `Bearer ${sessionTokenFor("502")}` } });
      },
    });
    const v = only(run.verdicts, "print-auth");
    expect(v.status).toBe("PASS");
    expect(v.details.join("\n")).toContain(`https://${shop}, user 502, signed with the app's secret`);
    const response = await answer;
    expect(response?.headers.get("content-type")).toBe("application/pdf");
    expect((await response?.text())?.startsWith("%PDF-")).toBe(true);
  });

  it("fails when the print src request comes without a bearer token, and names what it carried instead", async () => {
    const run = await verify(["--check", "print-auth", "--print-listen", "0", "--print-wait", "10"], {
      onPrintListenerReady: (url) => {
        void fetch(`${url}${printPath}&id_token=${sessionTokenFor("502")}`);
      },
    });
    const v = only(run.verdicts, "print-auth");
    expect(v.status).toBe("FAIL");
    expect(v.details.join("\n")).toContain("an id_token query parameter");
    expect(run.exitCode).toBe(1);
  });

  it("fails when the bearer token is not signed with the app's secret", async () => {
    const forged = signSessionToken({ ...app, apiSecret: "someone-else" }, shop);
    const run = await verify(["--check", "print-auth", "--print-listen", "0", "--print-wait", "10"], {
      onPrintListenerReady: (url) => {
        void fetch(`${url}${printPath}`, { headers: { Authorization: `Bearer ${forged}` } });
      },
    });
    expect(only(run.verdicts, "print-auth")).toMatchObject({ status: "FAIL" });
  });

  it("forwards every request to the app when it sits in front of it, so the print still works", async () => {
    const { createServer } = await import("node:http");
    const seen: Array<string | undefined> = [];
    const upstream = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { "Content-Type": "application/pdf" }).end("%PDF-from-the-app");
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const address = upstream.address();
    const upstreamUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    let body: Promise<string> | undefined;
    try {
      const token = sessionTokenFor("502");
      const run = await verify(
        ["--check", "print-auth", "--print-listen", "0", "--print-wait", "10", "--print-upstream", upstreamUrl],
        {
          onPrintListenerReady: (url) => {
            body = fetch(`${url}${printPath}`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.text());
          },
        },
      );
      expect(only(run.verdicts, "print-auth")).toMatchObject({ status: "PASS" });
      expect(await body).toBe("%PDF-from-the-app");
      expect(seen).toEqual([`Bearer ${token}`]);
    } finally {
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });

  it("needs a human when nobody clicks Print before the wait is over", async () => {
    const run = await verify(["--check", "print-auth", "--print-listen", "0", "--print-wait", "0.2"]);
    const v = only(run.verdicts, "print-auth");
    expect(v.status).toBe("NEEDS-HUMAN");
    expect(v.details.join("\n")).toContain("Click Print → Shipping label");
  });
});

describe("the carrier-tracking check (ADR 9)", () => {
  const CREATE_FULFILLMENT = `mutation($f: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $f) { fulfillment { id } userErrors { message } } }`;
  const CREATE_EVENT = `mutation($e: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $e) { fulfillmentEvent { id } userErrors { message } } }`;

  function openFulfillmentOrderOf(name: string) {
    const order = running.emulator.findOrderByName(name);
    const fo = order?.fulfillmentOrders.find((f) => f.status === "OPEN");
    if (!order || !fo) throw new Error(`${name} has no open fulfillment order`);
    return { order, fo };
  }

  async function fulfilWithEvents(statuses: string[]): Promise<string> {
    const { fo } = openFulfillmentOrderOf("#1001");
    const answer = await running.emulator.graphql(CREATE_FULFILLMENT, {
      variables: {
        f: {
          lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }],
          trackingInfo: { company: "UPS", number: "1Z999AA10123456784" },
        },
      },
    });
    const created = (await answer.json()) as { data?: { fulfillmentCreate?: { fulfillment?: { id: string } } } };
    const id = created.data?.fulfillmentCreate?.fulfillment?.id;
    if (!id) throw new Error(`fulfillmentCreate failed: ${JSON.stringify(created)}`);
    for (const [i, status] of statuses.entries()) {
      await running.emulator.graphql(CREATE_EVENT, {
        variables: { e: { fulfillmentId: id, status, happenedAt: `2026-03-0${i + 1}T10:00:00Z` } },
      });
    }
    return id;
  }

  it("passes on a fulfillment whose events show each status once", async () => {
    const id = await fulfilWithEvents(["IN_TRANSIT", "OUT_FOR_DELIVERY", "DELIVERED"]);
    const run = await verify(["--check", "carrier-tracking", "--fulfillment", id]);
    expect(only(run.verdicts, "carrier-tracking")).toMatchObject({ status: "PASS" });
  });

  it("fails on a fulfillment where a status shows twice, since the app sends each status once", async () => {
    const id = await fulfilWithEvents(["IN_TRANSIT", "IN_TRANSIT", "DELIVERED"]);
    const run = await verify(["--check", "carrier-tracking", "--fulfillment", id]);
    const v = only(run.verdicts, "carrier-tracking");
    expect(v.status).toBe("FAIL");
    expect(v.summary).toContain("IN_TRANSIT ×2");
  });

  it("fails when a fulfillment the app posted nothing to has events, which only Shopify can have added", async () => {
    const id = await fulfilWithEvents(["IN_TRANSIT"]);
    const run = await verify(["--check", "carrier-tracking", "--fulfillment", id, "--no-app-events"]);
    expect(only(run.verdicts, "carrier-tracking")).toMatchObject({ status: "FAIL" });
  });

  it("writes nothing without --allow-writes, and nothing to an order that is not a test order", async () => {
    const before = running.emulator.fulfillments().length;
    const args = ["--check", "carrier-tracking", "--order", openFulfillmentOrderOf("#1001").order.id];
    const tracking = ["--carrier", "UPS", "--tracking-number", "1Z999AA10123456784"];

    const notTest = await verify([...args, ...tracking, "--allow-writes"]);
    expect(only(notTest.verdicts, "carrier-tracking").summary).toContain("is not an open test order");

    openFulfillmentOrderOf("#1001").order.test = true;
    const withoutFlag = await verify([...args, ...tracking]);
    expect(only(withoutFlag.verdicts, "carrier-tracking")).toMatchObject({ status: "NEEDS-HUMAN" });
    expect(only(withoutFlag.verdicts, "carrier-tracking").summary).toContain("nothing was written");
    expect(running.emulator.fulfillments().length).toBe(before);
  });

  it("with --allow-writes fulfils a test order without notifying the customer, and the emulator, which tracks no carrier, adds no events of its own", async () => {
    const { order } = openFulfillmentOrderOf("#1001");
    order.test = true;
    const created = await verify([
      "--check",
      "carrier-tracking",
      "--order",
      order.id,
      "--carrier",
      "UPS",
      "--tracking-number",
      "1Z999AA10123456784",
      "--allow-writes",
    ]);
    const fresh = only(created.verdicts, "carrier-tracking");
    expect(fresh.status).toBe("NEEDS-HUMAN");
    const fulfillment = running.emulator.fulfillments().find((f) => f.orderId === order.id && f.createdThroughApi);
    expect(fulfillment).toMatchObject({
      notifyCustomer: false,
      trackingInfo: [{ company: "UPS", number: "1Z999AA10123456784" }],
    });
    expect(fresh.details.join("\n")).toContain(`--fulfillment ${fulfillment?.id} --no-app-events`);

    // A day later (the clock is the script's, set from the fulfillment's own time).
    const createdAt = Date.parse(fulfillment?.createdAt ?? "");
    const later = await verify(
      ["--check", "carrier-tracking", "--fulfillment", fulfillment?.id ?? "", "--no-app-events"],
      { now: () => createdAt + 25 * HOUR },
    );
    expect(only(later.verdicts, "carrier-tracking")).toMatchObject({ status: "PASS" });
  });
});

describe("the command line", () => {
  it("runs every check by default and says what each one needs when given only the store", async () => {
    const lines: string[] = [];
    const code = await main([], { SHOPIFY_SHOP: shop }, { out: (line) => lines.push(line) });
    expect(code).toBe(0);
    expect(lines.filter((l) => l.startsWith("[NEEDS-HUMAN]"))).toHaveLength(3);
    expect(lines.at(-1)).toBe("RESULT NEEDS-HUMAN (0 passed, 0 failed, 3 need a human)");
  });

  it("answers a usage error with exit code 2", async () => {
    const lines: string[] = [];
    expect(await main(["--shop", "example.com"], {}, { out: (line) => lines.push(line) })).toBe(2);
    expect(lines[0]).toContain("myshopify.com domain");
  });

  it("exits 1 with a RESULT FAIL line when run as a command and a check fails", () => {
    const file = join(scratch, "kept-cli.json");
    writeFileSync(
      file,
      JSON.stringify({
        scope: "write_merchant_managed_fulfillment_orders",
        associated_user_scope: "write_merchant_managed_fulfillment_orders",
        associated_user: { id: 501, account_owner: false },
      }),
    );
    const child = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/verify-store.ts",
        "--shop",
        shop,
        "--check",
        "staff-scope",
        "--online-token-response",
        file,
      ],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, VERIFY_RESTRICTED_SESSION_TOKEN: "" }, timeout: 30_000 },
    );
    expect(child.status).toBe(1);
    expect(child.stdout.trim().split("\n").at(-1)).toBe("RESULT FAIL (0 passed, 1 failed, 0 need a human)");
  });
});
