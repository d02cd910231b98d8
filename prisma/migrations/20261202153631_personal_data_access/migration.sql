-- CreateTable
CREATE TABLE "PersonalDataAccess" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "reader" TEXT NOT NULL,
    "orderGids" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "PersonalDataAccess_shop_at_idx" ON "PersonalDataAccess"("shop", "at");

-- CreateIndex
CREATE INDEX "PersonalDataAccess_at_idx" ON "PersonalDataAccess"("at");

