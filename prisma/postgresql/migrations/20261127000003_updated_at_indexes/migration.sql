-- CreateIndex
CREATE INDEX "Label_shop_updatedAt_idx" ON "Label"("shop", "updatedAt");

-- CreateIndex
CREATE INDEX "AutoDraftOutcome_shop_updatedAt_idx" ON "AutoDraftOutcome"("shop", "updatedAt");

