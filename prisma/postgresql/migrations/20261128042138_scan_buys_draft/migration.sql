-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "scanBuysDraft" BOOLEAN NOT NULL DEFAULT false;

