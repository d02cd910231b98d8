import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { describe, expect, it } from "vitest";

import db from "~/db.server";
import type { FulfillmentGid, FulfillmentOrderGid, OrderGid } from "~/shopify/ids";

import { findLabel, LABEL_TRANSITIONS, type LabelTransition } from "./label-repository.server";
import { LABEL_STATUSES, type LabelStatus } from "./label-state";
import {
  claimPurchase,
  completeCreation,
  endPurchaseLease,
  failCreation,
  returnToDraft,
  savePurchased,
  takeOverCreation,
  voidDraft,
} from "./label-transitions.server";
import { acceptVoid, refundVoid, refuseVoid } from "./void-transitions.server";
import { completeWriteBack } from "./write-back-claims.server";

const SHOP = "repo-shop.myshopify.com";
const TOKEN = "the-owner";
const PAST = new Date(Date.now() - 60_000);
const NOW = new Date();
const SOON = new Date(Date.now() + 60_000);

async function labelIn(status: LabelStatus, n: number): Promise<string> {
  const row = await db.label.create({
    data: {
      shop: SHOP,
      orderGid: `gid://shopify/Order/${n}`,
      orderName: `#${n}`,
      fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/${n}`,
      status,
      serviceLabelId: `lbl_${n}`,
      claimToken: TOKEN,
      leaseUntil: PAST,
      // A void request in flight: what the void transitions leave (the others ignore it).
      refundStatus: "requesting",
    },
  });
  return row.id;
}

// Each transition called as its rightful owner would: only the state it may leave decides.
const RUN: Record<
  Exclude<LabelTransition, "claimCreationSlot" | "recordOutsidePurchase">,
  (labelId: string, n: number) => Promise<boolean>
> = {
  takeOverCreation: (labelId) =>
    takeOverCreation({ db, shop: SHOP, labelId }, { token: "new", leaseUntil: SOON, now: NOW, lineItems: [] }),
  completeCreation: (labelId, n) =>
    completeCreation({ db, shop: SHOP, labelId }, TOKEN, {
      serviceLabelId: `lbl_${n}`,
      rateId: "rate_1",
      carrier: "USPS",
      serviceCode: "svc_usps_priority",
      serviceName: "Priority Mail",
      quotedCents: 900,
      currency: "USD",
      shipDate: null,
      labelFormat: "pdf",
      labelSize: "4x6",
      packageCount: 1,
      requestId: null,
      request: {},
      shipToKey: null,
    }),
  failCreation: (labelId) => failCreation({ db, shop: SHOP, labelId }, TOKEN, "refused"),
  claimPurchase: async (labelId) =>
    (await claimPurchase({ db, shop: SHOP, labelId }, { token: "new", leaseUntil: SOON, now: NOW })) !== null,
  endPurchaseLease: (labelId) => endPurchaseLease({ db, shop: SHOP, labelId }, TOKEN, "unknown", SOON),
  returnToDraft: (labelId) => returnToDraft({ db, shop: SHOP, labelId }, TOKEN, "refused"),
  savePurchased: (labelId, n) =>
    savePurchased(
      { db, shop: SHOP, labelId },
      `lbl_${n}`,
      {
        chargedCents: 900,
        chargeMismatch: false,
        currency: "USD",
        carrier: "USPS",
        serviceCode: "svc_usps_priority",
        serviceName: "Priority Mail",
        trackingNumbers: ["9400"],
        trackingUrl: null,
        labelUrl: "http://labels/1.pdf",
        labelFormat: "pdf",
        packageCount: 1,
        requestId: null,
        purchasedAt: NOW,
      },
      { outcome: "ok", amountCents: 900 },
    ),
  voidDraft: (labelId) => voidDraft({ db, shop: SHOP, labelId }),
  completeWriteBack: (labelId, n) =>
    completeWriteBack({ db, shop: SHOP, labelId }, `gid://shopify/Fulfillment/${n}` as FulfillmentGid),
  acceptVoid: (labelId) => acceptVoid({ db, shop: SHOP, labelId }, TOKEN, { refundCents: 900, requestedAt: NOW }),
  refundVoid: (labelId) => refundVoid({ db, shop: SHOP, labelId }, { refundCents: 900, decidedAt: NOW }),
  refuseVoid: (labelId, n) =>
    refuseVoid(
      { db, shop: SHOP, labelId },
      { reason: "scanned", decidedAt: NOW, fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/${n}` as never },
    ),
};

describe("the label state machine", () => {
  it.each(Object.keys(RUN) as (keyof typeof RUN)[])(
    "%s leaves exactly the states its table names, and enters the one it names",
    async (transition) => {
      const { from, to } = LABEL_TRANSITIONS[transition];
      const outcomes: Record<string, { moved: boolean; now: string }> = {};
      let n = 0;
      for (const status of LABEL_STATUSES) {
        n += 1;
        const labelId = await labelIn(status, n);
        const moved = await RUN[transition](labelId, n);
        const row = await db.label.findUniqueOrThrow({ where: { id: labelId } });
        outcomes[status] = { moved, now: row.status };
      }
      for (const status of LABEL_STATUSES) {
        const allowed = (from as readonly LabelStatus[]).includes(status);
        expect(outcomes[status], `${transition} from ${status}`).toEqual({
          moved: allowed,
          now: allowed ? to : status,
        });
      }
    },
  );

  it("refuses a claimed state's transition to a caller without the owner's token", async () => {
    const creating = await labelIn("creating", 1);
    expect(await failCreation({ db, shop: SHOP, labelId: creating }, "not-the-owner", "x")).toBe(false);
    const purchasing = await labelIn("purchasing", 2);
    expect(await returnToDraft({ db, shop: SHOP, labelId: purchasing }, "not-the-owner", "x")).toBe(false);
    expect(await endPurchaseLease({ db, shop: SHOP, labelId: purchasing }, "not-the-owner", "x", SOON)).toBe(false);
  });

  it("never touches another shop's label", async () => {
    const labelId = await labelIn("draft", 1);
    expect(await voidDraft({ db, shop: "other.myshopify.com", labelId })).toBe(false);
    expect((await db.label.findUniqueOrThrow({ where: { id: labelId } })).status).toBe("draft");
  });

  it("finds nothing for an id with a lone surrogate (an edited URL), instead of failing in the driver", async () => {
    await labelIn("draft", 1);
    expect(await findLabel(db, SHOP, "\ud800")).toBeNull();
    expect(await findLabel(db, SHOP, "cm\udc00x")).toBeNull();
  });

  it("keeps branded ids typed across the boundary", () => {
    // Compile-time: LabelView ids are branded; a plain string does not fit.
    const order: OrderGid = "gid://shopify/Order/1" as OrderGid;
    const fo: FulfillmentOrderGid = "gid://shopify/FulfillmentOrder/1" as FulfillmentOrderGid;
    expect([order, fo]).toHaveLength(2);
  });
});

// The label repository, split along its seams: reads, transitions, the write-back's claim, redaction,
// the home page's figures, and what each "needs" filter of the Labels list selects.
const REPOSITORY = new Set([
  "labels/label-needs.server.ts",
  "labels/label-repository.server.ts",
  "labels/label-transitions.server.ts",
  "labels/write-back-claims.server.ts",
  "labels/label-redaction.server.ts",
  "labels/void-transitions.server.ts",
  "labels/label-figures.server.ts",
]);

describe("label rows", () => {
  it("are read and written by the label repository and nothing else in app/, however the model is reached", () => {
    const root = join(__dirname, "..");
    const offenders: string[] = [];
    // Any use of a Prisma client's `label` model: `db.label.updateMany(`, `tx.label`, aliases.
    const touchesLabelModel = /\b(?:db|tx|client|prisma|deps\.db)\.label\b|\bPrisma\.Label(?:Where|Update|Create)/;
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) {
          if (name !== "types") walk(path);
          continue;
        }
        if (!/\.tsx?$/.test(name) || /\.test\.tsx?$/.test(name) || REPOSITORY.has(relative(root, path))) continue;
        if (touchesLabelModel.test(readFileSync(path, "utf8"))) offenders.push(relative(root, path));
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
