-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_BulkRunItem" (
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
    "updatedAt" DATETIME NOT NULL,
    "missingCustoms" TEXT NOT NULL DEFAULT '[]'
);
INSERT INTO "new_BulkRunItem" ("attempts", "boxes", "carrier", "createdAt", "fulfillmentOrderGid", "id", "labelId", "message", "orderGid", "orderName", "position", "problems", "quotedCents", "runId", "serviceName", "shop", "status", "updatedAt") SELECT "attempts", "boxes", "carrier", "createdAt", "fulfillmentOrderGid", "id", "labelId", "message", "orderGid", "orderName", "position", "problems", "quotedCents", "runId", "serviceName", "shop", "status", "updatedAt" FROM "BulkRunItem";
DROP TABLE "BulkRunItem";
ALTER TABLE "new_BulkRunItem" RENAME TO "BulkRunItem";
CREATE INDEX "BulkRunItem_runId_status_idx" ON "BulkRunItem"("runId", "status");
CREATE INDEX "BulkRunItem_runId_position_idx" ON "BulkRunItem"("runId", "position");
CREATE INDEX "BulkRunItem_shop_idx" ON "BulkRunItem"("shop");
CREATE UNIQUE INDEX "BulkRunItem_runId_fulfillmentOrderGid_key" ON "BulkRunItem"("runId", "fulfillmentOrderGid");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

