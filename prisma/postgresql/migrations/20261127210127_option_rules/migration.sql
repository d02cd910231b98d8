-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "adultSignatureProductTypes" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "adultSignatureTags" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "insureAboveCents" INTEGER,
ADD COLUMN     "lithiumTags" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "BulkRunItem" ADD COLUMN     "options" TEXT NOT NULL DEFAULT '{}';

