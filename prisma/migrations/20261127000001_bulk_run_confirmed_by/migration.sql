-- AlterTable
ALTER TABLE "BulkRun" ADD COLUMN "confirmedBy" TEXT;

