-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "packingSlipNote" TEXT,
ADD COLUMN     "packingSlips" TEXT NOT NULL DEFAULT 'off';

