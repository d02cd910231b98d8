-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "autoVoidHeldPurchases" BOOLEAN NOT NULL DEFAULT false;

