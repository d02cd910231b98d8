import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { listAuditEntries } from "~/labels/audit.server";

import { createEmulators, createTestShippingClient, DEMO_ORG, TEST_LABEL_SHOP } from "../../test/helpers/labels";
import { validateShipToAddress } from "./validate-address.server";

const ADDRESS = { street1: "1600 Amphitheatre Pkwy", city: "Mountain View", state: "CA", zip: "94043" };

describe("validateShipToAddress", () => {
  it("records a billed validation with its amount and request id", async () => {
    const { shipping } = createEmulators();
    const result = await validateShipToAddress(
      { db, shop: TEST_LABEL_SHOP, shipping: createTestShippingClient(shipping) },
      { orderGid: "gid://shopify/Order/1", address: ADDRESS },
    );
    expect(result.ok).toBe(true);
    const [entry, ...rest] = await listAuditEntries(db, TEST_LABEL_SHOP);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      action: "validate",
      outcome: "ok",
      amountCents: 5,
      orderGid: "gid://shopify/Order/1",
    });
    expect(entry?.requestId).toMatch(/^req_/);
    expect(shipping.validationsBilled(DEMO_ORG)).toBe(1);
  });

  it("bills an address once and answers the same address again from what was stored, however it is typed", async () => {
    const { shipping } = createEmulators();
    const deps = { db, shop: TEST_LABEL_SHOP, shipping: createTestShippingClient(shipping) };
    const first = await validateShipToAddress(deps, { orderGid: null, address: ADDRESS });
    const again = await validateShipToAddress(deps, {
      orderGid: null,
      address: { street1: "1600 amphitheatre pkwy.", city: "mountain view", state: "ca", zip: "94043-1351" },
    });
    expect(first.ok && first.value.reused).toBe(false);
    expect(again.ok && again.value.reused).toBe(true);
    expect(again.ok && again.value.result).toEqual(first.ok && first.value.result);
    expect(shipping.validationsBilled(DEMO_ORG)).toBe(1);
    expect(await listAuditEntries(db, TEST_LABEL_SHOP)).toHaveLength(1);
  });

  it("keeps stored answers per shop, so another shop pays for its own lookup", async () => {
    const { shipping } = createEmulators();
    const client = createTestShippingClient(shipping);
    await validateShipToAddress({ db, shop: TEST_LABEL_SHOP, shipping: client }, { orderGid: null, address: ADDRESS });
    const other = await validateShipToAddress(
      { db, shop: "other-shop.myshopify.com", shipping: client },
      { orderGid: null, address: ADDRESS },
    );
    expect(other.ok && other.value.reused).toBe(false);
    expect(shipping.validationsBilled(DEMO_ORG)).toBe(2);
  });

  it("records a sandbox validation as free", async () => {
    const { shipping } = createEmulators();
    await validateShipToAddress(
      { db, shop: TEST_LABEL_SHOP, shipping: createTestShippingClient(shipping, "sk_test_demo") },
      { orderGid: null, address: ADDRESS },
    );
    const [entry] = await listAuditEntries(db, TEST_LABEL_SHOP);
    expect(entry).toMatchObject({ action: "validate", outcome: "ok", amountCents: 0 });
  });

  it("records a refused validation too", async () => {
    const { shipping } = createEmulators();
    const result = await validateShipToAddress(
      { db, shop: TEST_LABEL_SHOP, shipping: createTestShippingClient(shipping, "sk_live_noorg") },
      { orderGid: null, address: ADDRESS },
    );
    expect(result.ok).toBe(false);
    const [entry] = await listAuditEntries(db, TEST_LABEL_SHOP);
    expect(entry).toMatchObject({ action: "validate", outcome: "error", amountCents: null });
  });
});
