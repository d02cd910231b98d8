-- AlterTable
ALTER TABLE "BulkRunItem" ADD COLUMN     "missingCustoms" TEXT NOT NULL DEFAULT '[]';

