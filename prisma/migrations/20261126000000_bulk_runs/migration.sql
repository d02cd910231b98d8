
-- CreateTable
CREATE TABLE "BulkRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'checking',
    "choice" TEXT NOT NULL DEFAULT '{"mode":"rules"}',
    "stopReason" TEXT,
    "confirmedCents" INTEGER,
    "createdBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "confirmedAt" DATETIME,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "BulkRunItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "fulfillmentOrderGid" TEXT,
    "status" TEXT NOT NULL DEFAULT 'checking',
    "problems" TEXT NOT NULL DEFAULT '[]',
    "message" TEXT,
    "labelId" TEXT,
    "carrier" TEXT,
    "serviceName" TEXT,
    "quotedCents" INTEGER,
    "boxes" INTEGER,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "BulkRun_shop_createdAt_idx" ON "BulkRun"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "BulkRunItem_runId_status_idx" ON "BulkRunItem"("runId", "status");

-- CreateIndex
CREATE INDEX "BulkRunItem_runId_position_idx" ON "BulkRunItem"("runId", "position");

-- CreateIndex
CREATE INDEX "BulkRunItem_shop_idx" ON "BulkRunItem"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "BulkRunItem_runId_fulfillmentOrderGid_key" ON "BulkRunItem"("runId", "fulfillmentOrderGid");

