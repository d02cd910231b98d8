-- CreateTable
CREATE TABLE "PersonalDataAccess" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "reader" TEXT NOT NULL,
    "orderGids" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PersonalDataAccess_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PersonalDataAccess_shop_at_idx" ON "PersonalDataAccess"("shop", "at");

-- CreateIndex
CREATE INDEX "PersonalDataAccess_at_idx" ON "PersonalDataAccess"("at");

