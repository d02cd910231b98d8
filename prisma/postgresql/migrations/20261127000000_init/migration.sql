-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopSettings" (
    "shop" TEXT NOT NULL,
    "apiKeyCiphertext" TEXT,
    "apiKeyIv" TEXT,
    "apiKeyAuthTag" TEXT,
    "apiKeyVersion" INTEGER NOT NULL DEFAULT 1,
    "apiKeyHint" TEXT,
    "mode" TEXT NOT NULL DEFAULT 'sandbox',
    "boxLength" DOUBLE PRECISION NOT NULL DEFAULT 12,
    "boxWidth" DOUBLE PRECISION NOT NULL DEFAULT 10,
    "boxHeight" DOUBLE PRECISION NOT NULL DEFAULT 6,
    "boxDimensionUnit" TEXT NOT NULL DEFAULT 'in',
    "boxMaxWeight" DOUBLE PRECISION NOT NULL DEFAULT 50,
    "boxWeightUnit" TEXT NOT NULL DEFAULT 'lb',
    "boxTareWeight" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "labelFormat" TEXT NOT NULL DEFAULT 'pdf',
    "labelSize" TEXT NOT NULL DEFAULT '4x6',
    "notifyCustomer" BOOLEAN NOT NULL DEFAULT true,
    "autoDraft" BOOLEAN NOT NULL DEFAULT false,
    "autoDraftRules" TEXT NOT NULL DEFAULT '[]',
    "addressValidationPolicy" TEXT NOT NULL DEFAULT 'on_request',
    "shipFromLocationGid" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopSettings_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "Label" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "fulfillmentOrderGid" TEXT NOT NULL,
    "activeKey" TEXT,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "serviceLabelId" TEXT,
    "rateId" TEXT,
    "carrier" TEXT,
    "serviceCode" TEXT,
    "serviceName" TEXT,
    "quotedCents" INTEGER,
    "chargedCents" INTEGER,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "chargeMismatch" BOOLEAN NOT NULL DEFAULT false,
    "trackingNumbers" TEXT NOT NULL DEFAULT '[]',
    "trackingUrl" TEXT,
    "labelFormat" TEXT,
    "labelSize" TEXT,
    "labelUrl" TEXT,
    "shipDate" TEXT,
    "packageCount" INTEGER NOT NULL DEFAULT 1,
    "requestIds" TEXT NOT NULL DEFAULT '[]',
    "request" TEXT,
    "lineItems" TEXT NOT NULL DEFAULT '[]',
    "claimToken" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "purchasedAt" TIMESTAMP(3),
    "lastError" TEXT,
    "boughtOutside" BOOLEAN NOT NULL DEFAULT false,
    "trackingStatus" TEXT,
    "trackingStatusAt" TIMESTAMP(3),
    "shipToKey" TEXT,
    "attention" TEXT,
    "attentionAt" TIMESTAMP(3),
    "fulfillmentGid" TEXT,
    "writeBackStatus" TEXT NOT NULL DEFAULT 'none',
    "writeBackAttempts" INTEGER NOT NULL DEFAULT 0,
    "writeBackLastError" TEXT,
    "writeBackToken" TEXT,
    "writeBackLeaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Label_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT,
    "labelId" TEXT,
    "action" TEXT NOT NULL,
    "amountCents" INTEGER,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "requestId" TEXT,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "staffMemberId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "eventKey" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BoxPreset" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "length" DOUBLE PRECISION NOT NULL,
    "width" DOUBLE PRECISION NOT NULL,
    "height" DOUBLE PRECISION NOT NULL,
    "dimensionUnit" TEXT NOT NULL,
    "tareWeight" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "maxWeight" DOUBLE PRECISION NOT NULL,
    "weightUnit" TEXT NOT NULL,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BoxPreset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AddressValidation" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "addressKey" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "billedCents" INTEGER NOT NULL,
    "requestId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AddressValidation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "dedupeKey" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 5,
    "lastError" TEXT,
    "claimToken" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomerDataRequest" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "customerId" TEXT,
    "ordersRequested" TEXT NOT NULL DEFAULT '[]',
    "report" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CustomerDataRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AutoDraftOutcome" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "fulfillmentOrderGid" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "problems" TEXT NOT NULL DEFAULT '[]',
    "note" TEXT,
    "labelId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AutoDraftOutcome_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShippingEventEndpoint" (
    "shop" TEXT NOT NULL,
    "endpointKey" TEXT NOT NULL,
    "serviceEndpointId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secretCiphertext" TEXT NOT NULL,
    "secretIv" TEXT NOT NULL,
    "secretAuthTag" TEXT NOT NULL,
    "secretVersion" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShippingEventEndpoint_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "ShippingEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "serviceLabelId" TEXT,
    "outcome" TEXT NOT NULL DEFAULT 'received',
    "detail" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShippingEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ParcelTracking" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "labelId" TEXT NOT NULL,
    "trackingNumber" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusDetail" TEXT,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "estimatedDeliveryAt" TIMESTAMP(3),
    "location" TEXT,
    "sentStatus" TEXT,
    "sentOccurredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ParcelTracking_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BulkRun" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'checking',
    "choice" TEXT NOT NULL DEFAULT '{"mode":"rules"}',
    "stopReason" TEXT,
    "confirmedCents" INTEGER,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "confirmedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "BulkRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BulkRunItem" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "fulfillmentOrderGid" TEXT,
    "status" TEXT NOT NULL DEFAULT 'checking',
    "problems" TEXT NOT NULL DEFAULT '[]',
    "message" TEXT,
    "labelId" TEXT,
    "carrier" TEXT,
    "serviceName" TEXT,
    "quotedCents" INTEGER,
    "boxes" INTEGER,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BulkRunItem_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "Label_activeKey_key" ON "Label"("activeKey");

-- CreateIndex
CREATE UNIQUE INDEX "Label_serviceLabelId_key" ON "Label"("serviceLabelId");

-- CreateIndex
CREATE INDEX "Label_shop_orderGid_idx" ON "Label"("shop", "orderGid");

-- CreateIndex
CREATE INDEX "Label_shop_status_idx" ON "Label"("shop", "status");

-- CreateIndex
CREATE INDEX "Label_shop_writeBackStatus_idx" ON "Label"("shop", "writeBackStatus");

-- CreateIndex
CREATE INDEX "AuditEntry_shop_createdAt_idx" ON "AuditEntry"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEntry_shop_labelId_idx" ON "AuditEntry"("shop", "labelId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_shop_topic_eventKey_key" ON "WebhookDelivery"("shop", "topic", "eventKey");

-- CreateIndex
CREATE INDEX "BoxPreset_shop_idx" ON "BoxPreset"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "AddressValidation_shop_addressKey_key" ON "AddressValidation"("shop", "addressKey");

-- CreateIndex
CREATE UNIQUE INDEX "Job_dedupeKey_key" ON "Job"("dedupeKey");

-- CreateIndex
CREATE INDEX "Job_status_name_runAt_idx" ON "Job"("status", "name", "runAt");

-- CreateIndex
CREATE INDEX "Job_shop_status_idx" ON "Job"("shop", "status");

-- CreateIndex
CREATE INDEX "CustomerDataRequest_shop_createdAt_idx" ON "CustomerDataRequest"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "AutoDraftOutcome_shop_orderGid_idx" ON "AutoDraftOutcome"("shop", "orderGid");

-- CreateIndex
CREATE INDEX "AutoDraftOutcome_shop_status_idx" ON "AutoDraftOutcome"("shop", "status");

-- CreateIndex
CREATE UNIQUE INDEX "AutoDraftOutcome_shop_fulfillmentOrderGid_key" ON "AutoDraftOutcome"("shop", "fulfillmentOrderGid");

-- CreateIndex
CREATE UNIQUE INDEX "ShippingEventEndpoint_endpointKey_key" ON "ShippingEventEndpoint"("endpointKey");

-- CreateIndex
CREATE INDEX "ShippingEvent_shop_outcome_receivedAt_idx" ON "ShippingEvent"("shop", "outcome", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ShippingEvent_shop_eventId_key" ON "ShippingEvent"("shop", "eventId");

-- CreateIndex
CREATE INDEX "ParcelTracking_shop_labelId_idx" ON "ParcelTracking"("shop", "labelId");

-- CreateIndex
CREATE UNIQUE INDEX "ParcelTracking_labelId_trackingNumber_key" ON "ParcelTracking"("labelId", "trackingNumber");

-- CreateIndex
CREATE INDEX "BulkRun_shop_createdAt_idx" ON "BulkRun"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "BulkRunItem_runId_status_idx" ON "BulkRunItem"("runId", "status");

-- CreateIndex
CREATE INDEX "BulkRunItem_runId_position_idx" ON "BulkRunItem"("runId", "position");

-- CreateIndex
CREATE INDEX "BulkRunItem_shop_idx" ON "BulkRunItem"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "BulkRunItem_runId_fulfillmentOrderGid_key" ON "BulkRunItem"("runId", "fulfillmentOrderGid");

