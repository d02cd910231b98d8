-- CreateTable
CREATE TABLE "ShopSettings" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "apiKeyCiphertext" TEXT,
    "apiKeyIv" TEXT,
    "apiKeyAuthTag" TEXT,
    "apiKeyVersion" INTEGER NOT NULL DEFAULT 1,
    "apiKeyHint" TEXT,
    "mode" TEXT NOT NULL DEFAULT 'sandbox',
    "boxLength" REAL NOT NULL DEFAULT 12,
    "boxWidth" REAL NOT NULL DEFAULT 10,
    "boxHeight" REAL NOT NULL DEFAULT 6,
    "boxDimensionUnit" TEXT NOT NULL DEFAULT 'in',
    "boxMaxWeight" REAL NOT NULL DEFAULT 50,
    "boxWeightUnit" TEXT NOT NULL DEFAULT 'lb',
    "boxTareWeight" REAL NOT NULL DEFAULT 0,
    "labelFormat" TEXT NOT NULL DEFAULT 'pdf',
    "labelSize" TEXT NOT NULL DEFAULT '4x6',
    "notifyCustomer" BOOLEAN NOT NULL DEFAULT true,
    "autoDraft" BOOLEAN NOT NULL DEFAULT false,
    "addressValidationPolicy" TEXT NOT NULL DEFAULT 'off',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Label" (
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
    "purchaseAttemptId" TEXT,
    "purchaseLeaseUntil" DATETIME,
    "purchasedAt" DATETIME,
    "lastError" TEXT,
    "fulfillmentGid" TEXT,
    "writeBackStatus" TEXT NOT NULL DEFAULT 'none',
    "writeBackAttempts" INTEGER NOT NULL DEFAULT 0,
    "writeBackLastError" TEXT,
    "writeBackLeaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT,
    "labelId" TEXT,
    "action" TEXT NOT NULL,
    "amountCents" INTEGER,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "requestId" TEXT,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "Label_activeKey_key" ON "Label"("activeKey");

-- CreateIndex
CREATE UNIQUE INDEX "Label_serviceLabelId_key" ON "Label"("serviceLabelId");

-- CreateIndex
CREATE INDEX "Label_shop_orderGid_idx" ON "Label"("shop", "orderGid");

-- CreateIndex
CREATE INDEX "Label_shop_status_idx" ON "Label"("shop", "status");

-- CreateIndex
CREATE INDEX "Label_shop_writeBackStatus_idx" ON "Label"("shop", "writeBackStatus");

-- CreateIndex
CREATE INDEX "AuditEntry_shop_createdAt_idx" ON "AuditEntry"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEntry_shop_labelId_idx" ON "AuditEntry"("shop", "labelId");
