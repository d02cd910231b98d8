import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { findLabel } from "~/labels/label-repository.server";
import { NO_OPTION_RULES } from "~/settings/option-rules";
import { saveShopSettings } from "~/settings/settings.server";

import type { ShopifyAdminEmulator } from "../emulator/shopify/emulator";
import type { FulfillmentOrderRecord, OrderRecord } from "../emulator/shopify/model";
import { createDoorWorld, DOOR_SHOP, type DoorAnswer, type DoorWorld } from "./helpers/doors";

// One rule × door matrix (issue 21): every rule of the shipping service's spec that an order can
// break, and each of the shipment's own rules, run through every door that starts or spends on a
// label. A door may refuse in its own words, but none may send a draft or a purchase for it (the
// shipping emulator's own records say so), every door that answers with fields names the rule's
// field, and the Orders list never calls such an order "Ready". A valid order then ends with
// exactly one draft per door that drafts, and one charge per door that buys.

type Breaker = (order: OrderRecord, fulfillmentOrder: FulfillmentOrderRecord) => void;

function withoutState(order: OrderRecord, fo: FulfillmentOrderRecord) {
  if (order.shippingAddress) Object.assign(order.shippingAddress, { province: null, provinceCode: null });
  if (fo.destination) fo.destination.province = null;
}

function shipTo(countryCode: string): Breaker {
  return (order, fo) => {
    if (order.shippingAddress) order.shippingAddress.countryCodeV2 = countryCode;
    if (fo.destination) fo.destination.countryCode = countryCode;
  };
}

function taxId(value: string): Breaker {
  return (order) => {
    for (const field of (order as unknown as { localizedFields: { value: string }[] }).localizedFields) {
      field.value = value;
    }
  };
}

// Held in Shopify before any label was made (the merchant's hold, as fulfillmentOrderHold makes it).
const onHold: Breaker = (_order, fo) => {
  fo.status = "ON_HOLD";
  fo.fulfillmentHolds = [
    {
      __typename: "FulfillmentHold",
      id: "gid://shopify/FulfillmentHold/1",
      reason: "AWAITING_PAYMENT",
      reasonNotes: null,
      displayReason: "Awaiting payment",
      handle: null,
      heldByRequestingApp: false,
    },
  ];
};

const withoutOrigin: Breaker = (_order, fo) => {
  for (const line of fo.lineItems) {
    const item = line.lineItem.variant?.inventoryItem;
    if (item) item.countryCodeOfOrigin = null;
  }
};

// Thirty of each item, each in a box of its own at most: far more than the service's 20 boxes.
const manyBoxes: Breaker = (_order, fo) => {
  for (const line of fo.lineItems) {
    Object.assign(line, { totalQuantity: 30, remainingQuantity: 30 });
    Object.assign(line.lineItem, { quantity: 30, currentQuantity: 30 });
  }
};

type Rule = {
  readonly rule: string;
  readonly order: string;
  /** The field every door that names fields must name. */
  readonly path: string;
  readonly breakIt?: Breaker;
  /** Doors that leave the order out instead (nothing to label now), saying why: matched here. */
  readonly leftOut?: { readonly doors: readonly string[]; readonly why: RegExp };
};

const RULES: readonly Rule[] = [
  // The service's rules (shipping-api.md), checked by preflight.
  { rule: "a US address without a state", order: "#1001", path: "to_address.state", breakIt: withoutState },
  { rule: "a Canadian address without a province", order: "#1003", path: "to_address.state", breakIt: withoutState },
  { rule: "an Australian address without a state", order: "#1010", path: "to_address.state", breakIt: withoutState },
  { rule: "an embargoed destination", order: "#1004", path: "to_address.country", breakIt: shipTo("CU") },
  { rule: "an invalid CPF", order: "#1006", path: "customs.tax_id", breakIt: taxId("123.456.789-00") },
  { rule: "an invalid partita IVA", order: "#1008", path: "customs.tax_id", breakIt: taxId("IT123") },
  { rule: "more than 20 boxes", order: "#1012", path: "parcels", breakIt: manyBoxes },
  { rule: "no recipient phone abroad", order: "#1013", path: "to_address.phone" },
  { rule: "a declared value above 2,500 USD without an export declaration", order: "#1011", path: "customs.eel_pfc" },
  // The shipment's own rules, found by prefill from Shopify's data.
  { rule: "Brazil without the recipient's tax id", order: "#1007", path: "customs.tax_id" },
  {
    rule: "a product without a country of origin",
    order: "#1004",
    path: "customs.country_of_origin",
    breakIt: withoutOrigin,
  },
  { rule: "a product without a weight", order: "#1014", path: "parcel.weight" },
  { rule: "duties paid at checkout (DDP)", order: "#1020", path: "fulfillment_order.international_duties" },
  {
    rule: "a shipment on hold in Shopify",
    order: "#1002",
    path: "fulfillment_order",
    breakIt: onHold,
    leftOut: { doors: ["selection check", "bulk review", "automatic draft"], why: /on hold|ON_HOLD/i },
  },
];

function breakOrder(shopify: ShopifyAdminEmulator, rule: Rule) {
  const order = shopify.findOrderByName(rule.order);
  const fo = order?.fulfillmentOrders.find((f) => f.deliveryMethod.methodType === "SHIPPING");
  if (!order || !fo) throw new Error(`no shipment on ${rule.order}`);
  rule.breakIt?.(order, fo);
  // The emulator indexes its records: reading the order again drops the stale index.
  shopify.findOrderByName(rule.order);
}

const namesField = (answer: DoorAnswer, path: string) =>
  answer.paths.some((p) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`));

describe("every door refuses what the check blocks, and sends nothing for it", () => {
  it.each(RULES)("$rule ($order)", async (rule) => {
    const world = createDoorWorld();
    breakOrder(world.emulators.shopify, rule);

    const row = await world.listRow(rule.order);
    expect(row.problems?.blocking ?? 0, "the list says Ready").toSatisfy(
      (blocking: number) => blocking > 0 || Boolean(row.problems?.unchecked),
    );

    const doors: Record<string, DoorAnswer> = {
      "order page": await world.orderPageDraft(rule.order),
      extension: await world.extensionBuy(rule.order),
      "selection check": await world.selectionCheck(rule.order),
      "bulk review": await world.bulkCheck(rule.order),
      "automatic draft": await world.autoDraft(rule.order),
    };
    for (const [door, answer] of Object.entries(doors)) {
      if (rule.leftOut?.doors.includes(door)) {
        expect(answer.outcome, door).toBe("skipped");
        expect(answer.messages.join(" "), door).toMatch(rule.leftOut.why);
        continue;
      }
      expect(answer.outcome, `${door}: ${answer.messages.join(" / ")}`).toBe("blocked");
      // The selection's check answers messages only (the extension lists them); the others name the field.
      if (door !== "selection check")
        expect(namesField(answer, rule.path), `${door} names ${rule.path}: ${answer.paths.join(", ")}`).toBe(true);
    }
    expect(world.recorded()).toEqual({ drafts: 0, charges: 0 });
  });
});

describe("a forged order page request", () => {
  it("cannot edit away the shipment's own rules by posting a field of their name", async () => {
    const world = createDoorWorld();
    const { createDraftForOrderPage, loadOrderLabelPage } =
      await import("~/routes/app.orders.$orderId/order-label-page.server");
    const orderGid = world.orderGidOf("#1020");
    const page = await loadOrderLabelPage(world.deps, orderGid);
    const section = page.ok ? page.value.fulfillmentOrders[0] : null;
    if (!section) throw new Error("#1020 did not load");
    const donor = await world.orderPageDraft("#1002");
    expect(donor.outcome).toBe("drafted");
    const rateId = (await db.label.findFirstOrThrow({ where: { shop: world.deps.shop } })).rateId ?? "rate_x";
    // A rate the server really quoted, at its real price: the price check passes, the rule must hold.
    const quoted = await db.rateQuote.findUniqueOrThrow({
      where: { shop_rateId: { shop: world.deps.shop, rateId } },
    });
    const forged = await createDraftForOrderPage(world.deps, {
      orderGid,
      fulfillmentOrderId: section.id,
      // Duties paid at checkout are not a field of the request: a key of that name settles nothing.
      request: { ...section.prefill.request, fulfillment_order: { international_duties: "DAP" } } as never,
      lineItems: section.prefill.lineItems,
      rate: {
        rate_id: rateId,
        carrier: quoted.carrier,
        service: quoted.service,
        service_code: quoted.serviceCode,
        amount: (quoted.amountCents / 100).toFixed(2),
        currency: quoted.currency,
        ship_date: quoted.shipDate,
        expires_at: quoted.expiresAt.toISOString(),
      },
    });
    expect(forged.ok ? null : forged.error.fields.map((f) => f.path)).toContain(
      "fulfillment_order.international_duties",
    );
    expect(world.recorded()).toEqual({ drafts: 1, charges: 0 }); // #1002's draft only
  });
});

async function expectOneDraftAndCharge(world: DoorWorld, charges: number) {
  expect(world.recorded()).toEqual({ drafts: 1, charges });
}

describe("a valid order through each door", () => {
  const ORDER = "#1001";

  it("the Orders list calls it Ready", async () => {
    const world = createDoorWorld();
    expect((await world.listRow(ORDER)).problems).toMatchObject({ blocking: 0, warnings: 0, unchecked: null });
  });

  it("the order page drafts it once, then buys it once", async () => {
    const world = createDoorWorld();
    const drafted = await world.orderPageDraft(ORDER);
    expect(drafted.outcome).toBe("drafted");
    if (!drafted.labelId) throw new Error("no label");
    expect((await world.orderPageBuy(ORDER, drafted.labelId)).outcome).toBe("bought");
    await expectOneDraftAndCharge(world, 1);
  });

  it("the extension drafts and buys it once", async () => {
    const world = createDoorWorld();
    expect((await world.extensionBuy(ORDER)).outcome).toBe("bought");
    await expectOneDraftAndCharge(world, 1);
  });

  it("the selection's check counts it ready and sends nothing", async () => {
    const world = createDoorWorld();
    expect((await world.selectionCheck(ORDER)).outcome).toBe("ready");
    expect(world.recorded()).toEqual({ drafts: 0, charges: 0 });
  });

  it("a bulk run drafts it when checking and buys it once when confirmed", async () => {
    const world = createDoorWorld();
    const { review, final } = await world.bulkRun([ORDER], { buy: true });
    expect(review.items.map((i) => i.status)).toEqual(["ready"]);
    expect(final.items.map((i) => i.status)).toEqual(["bought"]);
    await expectOneDraftAndCharge(world, 1);
  });

  it("an automatic draft drafts it once and buys nothing", async () => {
    const world = createDoorWorld();
    expect((await world.autoDraft(ORDER)).outcome).toBe("drafted");
    expect((await world.autoDraft(ORDER)).outcome).toBe("skipped");
    await expectOneDraftAndCharge(world, 0);
  });
});

describe("the shop's option rules reach every door", () => {
  // #1001 ships two mugs and a notebook, for about $100.
  const ORDER = "#1001";
  const RULED = { insurance: { amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: "USD" }, signature: "adult" };

  async function withRules(run: (world: DoorWorld) => Promise<void>) {
    const world = createDoorWorld();
    const saved = await saveShopSettings(db, DOOR_SHOP, {
      optionRules: { ...NO_OPTION_RULES, insureAboveCents: 50_00, adultSignatureProductTypes: ["notebooks"] },
    });
    expect(saved.ok).toBe(true);
    try {
      await run(world);
    } finally {
      await saveShopSettings(db, DOOR_SHOP, { optionRules: NO_OPTION_RULES });
    }
  }

  it("the order page drafts and buys with them", () =>
    withRules(async (world) => {
      const drafted = await world.orderPageDraft(ORDER);
      if (!drafted.labelId) throw new Error(drafted.messages.join(" / "));
      expect((await world.orderPageBuy(ORDER, drafted.labelId)).outcome).toBe("bought");
      expect(await world.optionsAtTheService(ORDER)).toEqual([expect.objectContaining(RULED)]);
    }));

  it("the extension buys with them", () =>
    withRules(async (world) => {
      expect((await world.extensionBuy(ORDER)).outcome).toBe("bought");
      expect(await world.optionsAtTheService(ORDER)).toEqual([expect.objectContaining(RULED)]);
    }));

  it("a bulk run drafts with them and its review shows them per shipment and in the total", () =>
    withRules(async (world) => {
      const { review } = await world.bulkRun([ORDER], { buy: false });
      expect(review.items[0]?.options).toEqual(expect.objectContaining({ signature: "adult" }));
      expect(review.optionsInTotal).toBe("Includes insurance on 1 shipment and an adult signature on 1 shipment.");
      expect(await world.optionsAtTheService(ORDER)).toEqual([expect.objectContaining(RULED)]);
    }));

  it("an automatic draft drafts with them", () =>
    withRules(async (world) => {
      expect((await world.autoDraft(ORDER)).outcome).toBe("drafted");
      expect(await world.optionsAtTheService(ORDER)).toEqual([expect.objectContaining(RULED)]);
    }));

  it("the same order without rules carries no options", async () => {
    const world = createDoorWorld();
    expect((await world.autoDraft(ORDER)).outcome).toBe("drafted");
    expect(await world.optionsAtTheService(ORDER)).toEqual([expect.not.objectContaining({ signature: "adult" })]);
  });
});

describe("no purchase for a shipment Shopify would not let us fulfil", () => {
  const ORDER = "#1001";

  async function draftThenHold(world: DoorWorld) {
    expect((await world.autoDraft(ORDER)).outcome).toBe("drafted");
    world.emulators.shopify.holdFulfillmentOrder(
      world.firstFulfillmentOrder(ORDER),
      "AWAITING_PAYMENT",
      "Bank transfer not received",
    );
  }

  it("a hold placed after drafting: the order page and the extension buy nothing and say why; released, it is bought once", async () => {
    const world = createDoorWorld();
    await draftThenHold(world);
    const label = await db.label.findFirstOrThrow({ where: { shop: world.deps.shop } });

    const page = await world.orderPageBuy(ORDER, label.id);
    expect(page.outcome).toBe("blocked");
    expect(page.paths).toEqual(["fulfillment_order"]);
    expect(page.messages.join(" ")).toMatch(/on hold \(awaiting payment: Bank transfer not received\)/);
    expect(page.messages.join(" ")).toMatch(/Nothing was bought/);
    const extension = await world.extensionBuy(ORDER);
    expect(extension.outcome).toBe("blocked");
    expect(extension.messages.join(" ")).toMatch(/on hold/);
    expect(world.recorded()).toEqual({ drafts: 1, charges: 0 });
    expect((await findLabel(db, world.deps.shop, label.id))?.status).toBe("draft");

    world.emulators.shopify.releaseFulfillmentOrderHold(world.firstFulfillmentOrder(ORDER));
    expect((await world.orderPageBuy(ORDER, label.id)).outcome).toBe("bought");
    expect(world.recorded()).toEqual({ drafts: 1, charges: 1 });
  });

  it("items fulfilled elsewhere after drafting: nothing is bought, and the answer says the items changed", async () => {
    const world = createDoorWorld();
    expect((await world.autoDraft(ORDER)).outcome).toBe("drafted");
    const label = await db.label.findFirstOrThrow({ where: { shop: world.deps.shop } });
    // Shipped from Shopify's admin meanwhile: nothing of the first line is left to ship.
    const fo = world.emulators.shopify.findFulfillmentOrder(world.firstFulfillmentOrder(ORDER));
    const line = fo?.lineItems[0];
    if (!line) throw new Error("no line");
    line.remainingQuantity = 0;
    world.emulators.shopify.findOrderByName(ORDER);
    const page = await world.orderPageBuy(ORDER, label.id);
    expect(page.outcome).toBe("blocked");
    expect(page.messages.join(" ")).toMatch(/items of this draft were fulfilled or moved/);
    expect(world.recorded()).toEqual({ drafts: 1, charges: 0 });
  });

  it("an order cancelled after drafting: nothing is bought, and the answer says it was cancelled", async () => {
    const world = createDoorWorld();
    expect((await world.autoDraft(ORDER)).outcome).toBe("drafted");
    const label = await db.label.findFirstOrThrow({ where: { shop: world.deps.shop } });
    world.emulators.shopify.cancelOrder(world.orderGidOf(ORDER));
    const page = await world.orderPageBuy(ORDER, label.id);
    expect(page.outcome).toBe("blocked");
    expect(page.messages.join(" ")).toMatch(/cancelled/);
    expect(world.recorded()).toEqual({ drafts: 1, charges: 0 });
  });

  it("a hold placed during a running bulk run: the item is not bought and says why, and a retry after the release buys it once", async () => {
    const world = createDoorWorld();
    const { runId, final } = await world.bulkRun([ORDER, "#1002"], {
      buy: true,
      beforeBuying: () => {
        world.emulators.shopify.holdFulfillmentOrder(world.firstFulfillmentOrder(ORDER), "HIGH_RISK_OF_FRAUD");
      },
    });
    const held = final.items.find((i) => i.orderName === ORDER);
    expect(held).toMatchObject({
      status: "not_fulfillable",
      message: expect.stringMatching(/on hold \(high risk of fraud\)/),
    });
    expect(final.items.find((i) => i.orderName === "#1002")?.status).toBe("bought");
    expect(world.recorded()).toEqual({ drafts: 2, charges: 1 });

    world.emulators.shopify.releaseFulfillmentOrderHold(world.firstFulfillmentOrder(ORDER));
    const { retryFailedBulkItems, buyBulkRunItem } = await import("~/bulk/bulk-buying.server");
    const { getBulkRun } = await import("~/routes/app.bulk.$runId/bulk-run-view.server");
    const queued: string[] = [];
    const retried = await retryFailedBulkItems(db, world.deps.shop, runId, async (_tx, id) => void queued.push(id));
    expect(retried).toEqual({ ok: true, value: { queued: 1 } });
    for (const id of queued) await buyBulkRunItem(world.deps, id, { lastAttempt: true });
    const after = await getBulkRun(db, world.deps.shop, runId);
    expect(after?.items.map((i) => i.status)).toEqual(["bought", "bought"]);
    expect(world.recorded()).toEqual({ drafts: 2, charges: 2 });
  });
});
