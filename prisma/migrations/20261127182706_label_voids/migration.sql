-- AlterTable
ALTER TABLE "Label" ADD COLUMN "cancelledFulfillmentGid" TEXT;
ALTER TABLE "Label" ADD COLUMN "refundCents" INTEGER;
ALTER TABLE "Label" ADD COLUMN "refundStatus" TEXT;
ALTER TABLE "Label" ADD COLUMN "voidDecidedAt" DATETIME;
ALTER TABLE "Label" ADD COLUMN "voidRefusal" TEXT;
ALTER TABLE "Label" ADD COLUMN "voidRequestedAt" DATETIME;
ALTER TABLE "Label" ADD COLUMN "voidShopifyStatus" TEXT;

