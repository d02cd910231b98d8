-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Label" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "fulfillmentOrderGid" TEXT NOT NULL,
    "activeKey" TEXT,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "serviceLabelId" TEXT,
    "rateId" TEXT,
    "carrier" TEXT,
    "serviceCode" TEXT,
    "serviceName" TEXT,
    "quotedCents" INTEGER,
    "chargedCents" INTEGER,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "chargeMismatch" BOOLEAN NOT NULL DEFAULT false,
    "trackingNumbers" TEXT NOT NULL DEFAULT '[]',
    "trackingUrl" TEXT,
    "labelFormat" TEXT,
    "labelSize" TEXT,
    "labelUrl" TEXT,
    "shipDate" TEXT,
    "packageCount" INTEGER NOT NULL DEFAULT 1,
    "requestIds" TEXT NOT NULL DEFAULT '[]',
    "request" TEXT,
    "lineItems" TEXT NOT NULL DEFAULT '[]',
    "claimToken" TEXT,
    "leaseUntil" DATETIME,
    "purchasedAt" DATETIME,
    "lastError" TEXT,
    "boughtOutside" BOOLEAN NOT NULL DEFAULT false,
    "trackingStatus" TEXT,
    "trackingStatusAt" DATETIME,
    "shipToKey" TEXT,
    "attention" TEXT,
    "attentionAt" DATETIME,
    "fulfillmentGid" TEXT,
    "writeBackStatus" TEXT NOT NULL DEFAULT 'none',
    "writeBackAttempts" INTEGER NOT NULL DEFAULT 0,
    "writeBackLastError" TEXT,
    "writeBackToken" TEXT,
    "writeBackLeaseUntil" DATETIME,
    "shipToRedactedAt" DATETIME,
    "refundStatus" TEXT,
    "refundCents" INTEGER,
    "voidRefusal" TEXT,
    "voidRequestedAt" DATETIME,
    "voidDecidedAt" DATETIME,
    "voidShopifyStatus" TEXT,
    "cancelledFulfillmentGid" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'outbound',
    "returnGid" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Label" ("activeKey", "attention", "attentionAt", "boughtOutside", "cancelledFulfillmentGid", "carrier", "chargeMismatch", "chargedCents", "claimToken", "createdAt", "currency", "fulfillmentGid", "fulfillmentOrderGid", "id", "labelFormat", "labelSize", "labelUrl", "lastError", "leaseUntil", "lineItems", "orderGid", "orderName", "packageCount", "purchasedAt", "quotedCents", "rateId", "refundCents", "refundStatus", "request", "requestIds", "serviceCode", "serviceLabelId", "serviceName", "shipDate", "shipToKey", "shipToRedactedAt", "shop", "status", "trackingNumbers", "trackingStatus", "trackingStatusAt", "trackingUrl", "updatedAt", "voidDecidedAt", "voidRefusal", "voidRequestedAt", "voidShopifyStatus", "writeBackAttempts", "writeBackLastError", "writeBackLeaseUntil", "writeBackStatus", "writeBackToken") SELECT "activeKey", "attention", "attentionAt", "boughtOutside", "cancelledFulfillmentGid", "carrier", "chargeMismatch", "chargedCents", "claimToken", "createdAt", "currency", "fulfillmentGid", "fulfillmentOrderGid", "id", "labelFormat", "labelSize", "labelUrl", "lastError", "leaseUntil", "lineItems", "orderGid", "orderName", "packageCount", "purchasedAt", "quotedCents", "rateId", "refundCents", "refundStatus", "request", "requestIds", "serviceCode", "serviceLabelId", "serviceName", "shipDate", "shipToKey", "shipToRedactedAt", "shop", "status", "trackingNumbers", "trackingStatus", "trackingStatusAt", "trackingUrl", "updatedAt", "voidDecidedAt", "voidRefusal", "voidRequestedAt", "voidShopifyStatus", "writeBackAttempts", "writeBackLastError", "writeBackLeaseUntil", "writeBackStatus", "writeBackToken" FROM "Label";
DROP TABLE "Label";
ALTER TABLE "new_Label" RENAME TO "Label";
CREATE UNIQUE INDEX "Label_activeKey_key" ON "Label"("activeKey");
CREATE UNIQUE INDEX "Label_serviceLabelId_key" ON "Label"("serviceLabelId");
CREATE INDEX "Label_shop_orderGid_idx" ON "Label"("shop", "orderGid");
CREATE INDEX "Label_shop_status_idx" ON "Label"("shop", "status");
CREATE INDEX "Label_shop_writeBackStatus_idx" ON "Label"("shop", "writeBackStatus");
CREATE INDEX "Label_shop_updatedAt_id_idx" ON "Label"("shop", "updatedAt", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

