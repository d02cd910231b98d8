-- AlterTable
ALTER TABLE "Label" ADD COLUMN     "cancelledFulfillmentGid" TEXT,
ADD COLUMN     "refundCents" INTEGER,
ADD COLUMN     "refundStatus" TEXT,
ADD COLUMN     "voidDecidedAt" TIMESTAMP(3),
ADD COLUMN     "voidRefusal" TEXT,
ADD COLUMN     "voidRequestedAt" TIMESTAMP(3),
ADD COLUMN     "voidShopifyStatus" TEXT;

