-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "shipToRetentionDays" INTEGER NOT NULL DEFAULT 90;

-- AlterTable
ALTER TABLE "Label" ADD COLUMN     "shipToRedactedAt" TIMESTAMP(3);

