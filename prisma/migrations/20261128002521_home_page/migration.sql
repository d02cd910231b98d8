-- CreateTable
CREATE TABLE "OrderShippingPaid" (
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "paidCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "readAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shop", "orderGid")
);

-- CreateIndex
CREATE INDEX "Label_shop_purchasedAt_idx" ON "Label"("shop", "purchasedAt");

