-- DropIndex
DROP INDEX "Label_shop_updatedAt_idx";

-- DropIndex
DROP INDEX "AutoDraftOutcome_shop_updatedAt_idx";

-- CreateIndex
CREATE INDEX "Label_shop_updatedAt_id_idx" ON "Label"("shop", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "AutoDraftOutcome_shop_updatedAt_id_idx" ON "AutoDraftOutcome"("shop", "updatedAt", "id");

