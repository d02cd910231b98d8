-- AlterTable
ALTER TABLE "BulkRun" ADD COLUMN "bulkReadClaimedAt" DATETIME;
ALTER TABLE "BulkRun" ADD COLUMN "bulkReadOperation" TEXT;

