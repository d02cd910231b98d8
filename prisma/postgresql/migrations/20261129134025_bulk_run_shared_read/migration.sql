-- AlterTable
ALTER TABLE "BulkRun" ADD COLUMN     "bulkReadClaimedAt" TIMESTAMP(3),
ADD COLUMN     "bulkReadOperation" TEXT;

