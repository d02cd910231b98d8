-- CreateTable
CREATE TABLE "RateQuote" (
    "shop" TEXT NOT NULL,
    "rateId" TEXT NOT NULL,
    "carrier" TEXT NOT NULL,
    "service" TEXT NOT NULL,
    "serviceCode" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "shipDate" TEXT NOT NULL,
    "options" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "quotedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shop", "rateId")
);

-- CreateIndex
CREATE INDEX "RateQuote_shop_expiresAt_idx" ON "RateQuote"("shop", "expiresAt");

