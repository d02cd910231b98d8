-- Settings: ship-from location, and the address-validation policy renamed to what the merchant
-- chooses (never, on request, automatically for new addresses).
ALTER TABLE "ShopSettings" ADD COLUMN "shipFromLocationGid" TEXT;
UPDATE "ShopSettings" SET "addressValidationPolicy" = CASE "addressValidationPolicy"
  WHEN 'off' THEN 'never' WHEN 'warn' THEN 'on_request' WHEN 'require' THEN 'auto_new' ELSE 'on_request' END;

-- Label: the request the draft was made from. Audit: who made the call.
ALTER TABLE "Label" ADD COLUMN "request" TEXT;
ALTER TABLE "AuditEntry" ADD COLUMN "staffMemberId" TEXT;

-- CreateTable
CREATE TABLE "BoxPreset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "length" REAL NOT NULL,
    "width" REAL NOT NULL,
    "height" REAL NOT NULL,
    "dimensionUnit" TEXT NOT NULL,
    "tareWeight" REAL NOT NULL DEFAULT 0,
    "maxWeight" REAL NOT NULL,
    "weightUnit" TEXT NOT NULL,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AddressValidation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "addressKey" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "billedCents" INTEGER NOT NULL,
    "requestId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "BoxPreset_shop_idx" ON "BoxPreset"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "AddressValidation_shop_addressKey_key" ON "AddressValidation"("shop", "addressKey");

-- The policy default is on_request: SQLite redefines the table to change a default.
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
    "addressValidationPolicy" TEXT NOT NULL DEFAULT 'on_request',
    "shipFromLocationGid" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_ShopSettings" ("addressValidationPolicy", "apiKeyAuthTag", "apiKeyCiphertext", "apiKeyHint", "apiKeyIv", "apiKeyVersion", "autoDraft", "boxDimensionUnit", "boxHeight", "boxLength", "boxMaxWeight", "boxTareWeight", "boxWeightUnit", "boxWidth", "createdAt", "labelFormat", "labelSize", "mode", "notifyCustomer", "shipFromLocationGid", "shop", "updatedAt") SELECT "addressValidationPolicy", "apiKeyAuthTag", "apiKeyCiphertext", "apiKeyHint", "apiKeyIv", "apiKeyVersion", "autoDraft", "boxDimensionUnit", "boxHeight", "boxLength", "boxMaxWeight", "boxTareWeight", "boxWeightUnit", "boxWidth", "createdAt", "labelFormat", "labelSize", "mode", "notifyCustomer", "shipFromLocationGid", "shop", "updatedAt" FROM "ShopSettings";
DROP TABLE "ShopSettings";
ALTER TABLE "new_ShopSettings" RENAME TO "ShopSettings";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

