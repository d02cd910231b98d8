-- Auto-draft rules, the auto-draft job's outcomes, and labels flagged after a change to their order.
-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "autoDraftRules" TEXT NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Label" ADD COLUMN "shipToKey" TEXT;
ALTER TABLE "Label" ADD COLUMN "attention" TEXT;
ALTER TABLE "Label" ADD COLUMN "attentionAt" DATETIME;

-- CreateTable
CREATE TABLE "AutoDraftOutcome" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "fulfillmentOrderGid" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "problems" TEXT NOT NULL DEFAULT '[]',
    "note" TEXT,
    "labelId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "AutoDraftOutcome_shop_fulfillmentOrderGid_key" ON "AutoDraftOutcome"("shop", "fulfillmentOrderGid");

-- CreateIndex
CREATE INDEX "AutoDraftOutcome_shop_orderGid_idx" ON "AutoDraftOutcome"("shop", "orderGid");

-- CreateIndex
CREATE INDEX "AutoDraftOutcome_shop_status_idx" ON "AutoDraftOutcome"("shop", "status");
