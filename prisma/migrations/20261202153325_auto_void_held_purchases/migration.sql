-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ShopSettings" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "apiKeyCiphertext" TEXT,
    "apiKeyIv" TEXT,
    "apiKeyAuthTag" TEXT,
    "apiKeyVersion" INTEGER NOT NULL DEFAULT 1,
    "apiKeyHint" TEXT,
    "mode" TEXT NOT NULL DEFAULT 'sandbox',
    "boxLength" REAL NOT NULL DEFAULT 12,
    "boxWidth" REAL NOT NULL DEFAULT 10,
    "boxHeight" REAL NOT NULL DEFAULT 6,
    "boxDimensionUnit" TEXT NOT NULL DEFAULT 'in',
    "boxMaxWeight" REAL NOT NULL DEFAULT 50,
    "boxWeightUnit" TEXT NOT NULL DEFAULT 'lb',
    "boxTareWeight" REAL NOT NULL DEFAULT 0,
    "labelFormat" TEXT NOT NULL DEFAULT 'pdf',
    "labelSize" TEXT NOT NULL DEFAULT '4x6',
    "notifyCustomer" BOOLEAN NOT NULL DEFAULT true,
    "autoDraft" BOOLEAN NOT NULL DEFAULT false,
    "autoDraftRules" TEXT NOT NULL DEFAULT '[]',
    "addressValidationPolicy" TEXT NOT NULL DEFAULT 'on_request',
    "shipFromLocationGid" TEXT,
    "shipToRetentionDays" INTEGER NOT NULL DEFAULT 90,
    "packingSlips" TEXT NOT NULL DEFAULT 'off',
    "packingSlipNote" TEXT,
    "scanBuysDraft" BOOLEAN NOT NULL DEFAULT false,
    "insureAboveCents" INTEGER,
    "adultSignatureTags" TEXT NOT NULL DEFAULT '',
    "adultSignatureProductTypes" TEXT NOT NULL DEFAULT '',
    "lithiumTags" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "autoVoidHeldPurchases" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_ShopSettings" ("addressValidationPolicy", "adultSignatureProductTypes", "adultSignatureTags", "apiKeyAuthTag", "apiKeyCiphertext", "apiKeyHint", "apiKeyIv", "apiKeyVersion", "autoDraft", "autoDraftRules", "boxDimensionUnit", "boxHeight", "boxLength", "boxMaxWeight", "boxTareWeight", "boxWeightUnit", "boxWidth", "createdAt", "insureAboveCents", "labelFormat", "labelSize", "lithiumTags", "mode", "notifyCustomer", "packingSlipNote", "packingSlips", "scanBuysDraft", "shipFromLocationGid", "shipToRetentionDays", "shop", "updatedAt") SELECT "addressValidationPolicy", "adultSignatureProductTypes", "adultSignatureTags", "apiKeyAuthTag", "apiKeyCiphertext", "apiKeyHint", "apiKeyIv", "apiKeyVersion", "autoDraft", "autoDraftRules", "boxDimensionUnit", "boxHeight", "boxLength", "boxMaxWeight", "boxTareWeight", "boxWeightUnit", "boxWidth", "createdAt", "insureAboveCents", "labelFormat", "labelSize", "lithiumTags", "mode", "notifyCustomer", "packingSlipNote", "packingSlips", "scanBuysDraft", "shipFromLocationGid", "shipToRetentionDays", "shop", "updatedAt" FROM "ShopSettings";
DROP TABLE "ShopSettings";
ALTER TABLE "new_ShopSettings" RENAME TO "ShopSettings";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

