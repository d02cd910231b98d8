-- AlterTable
ALTER TABLE "Label" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'outbound',
ADD COLUMN     "returnGid" TEXT;

