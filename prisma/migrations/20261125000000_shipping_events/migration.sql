-- The shipping service's events: endpoints per shop, each event once, each parcel's tracking.
-- AlterTable
ALTER TABLE "Label" ADD COLUMN "boughtOutside" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Label" ADD COLUMN "trackingStatus" TEXT;
ALTER TABLE "Label" ADD COLUMN "trackingStatusAt" DATETIME;

-- CreateTable
CREATE TABLE "ShippingEventEndpoint" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "endpointKey" TEXT NOT NULL,
    "serviceEndpointId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secretCiphertext" TEXT NOT NULL,
    "secretIv" TEXT NOT NULL,
    "secretAuthTag" TEXT NOT NULL,
    "secretVersion" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ShippingEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "serviceLabelId" TEXT,
    "outcome" TEXT NOT NULL DEFAULT 'received',
    "detail" TEXT,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ParcelTracking" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "labelId" TEXT NOT NULL,
    "trackingNumber" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusDetail" TEXT,
    "occurredAt" DATETIME NOT NULL,
    "estimatedDeliveryAt" DATETIME,
    "location" TEXT,
    "sentStatus" TEXT,
    "sentOccurredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "ShippingEventEndpoint_endpointKey_key" ON "ShippingEventEndpoint"("endpointKey");

-- CreateIndex
CREATE UNIQUE INDEX "ShippingEvent_shop_eventId_key" ON "ShippingEvent"("shop", "eventId");

-- CreateIndex
CREATE INDEX "ShippingEvent_shop_outcome_receivedAt_idx" ON "ShippingEvent"("shop", "outcome", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ParcelTracking_labelId_trackingNumber_key" ON "ParcelTracking"("labelId", "trackingNumber");

-- CreateIndex
CREATE INDEX "ParcelTracking_shop_labelId_idx" ON "ParcelTracking"("shop", "labelId");
