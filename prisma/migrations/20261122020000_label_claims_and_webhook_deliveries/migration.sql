-- Label: one claim token and lease for `creating` and `purchasing` (was the purchase attempt's),
-- a write-back token, and the fulfillment-order line items each label ships.
ALTER TABLE "Label" RENAME COLUMN "purchaseAttemptId" TO "claimToken";
ALTER TABLE "Label" RENAME COLUMN "purchaseLeaseUntil" TO "leaseUntil";
ALTER TABLE "Label" ADD COLUMN "writeBackToken" TEXT;
ALTER TABLE "Label" ADD COLUMN "lineItems" TEXT NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "eventKey" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_shop_topic_eventKey_key" ON "WebhookDelivery"("shop", "topic", "eventKey");
