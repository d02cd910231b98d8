// The only code that speaks the shipping service's wire format, composed here into one client
// per shop key: the transport (transport.server.ts) carries every call, and each endpoint group
// (endpoints/) says what its operations send. No HTTP outcome throws: every call returns a
// Result whose error is a ShippingError.

import type { Result } from "~/utils/result";

import { validateAddress } from "./endpoints/addresses.server";
import { createDraftLabel, type CreateDraftLabelOptions, getLabel } from "./endpoints/labels.server";
import { purchaseLabel, type PurchaseOutcome } from "./endpoints/purchase.server";
import { getRates } from "./endpoints/rates.server";
import { type LabelVoid, voidLabel } from "./endpoints/void.server";
import {
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  registerWebhookEndpoint,
} from "./endpoints/webhook-endpoints.server";
import type { ShippingError } from "./errors";
import type {
  AddressValidationRequest,
  AddressValidationResult,
  CreateLabelRequest,
  DraftLabel,
  LabelRecord,
  RatesRequest,
  RatesResponse,
  RegisteredWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointRequest,
} from "./schemas";
import { type CallOptions, createTransport, type TransportOptions } from "./transport.server";

// Callers across the app import the client's vocabulary from this one module, wherever it is
// defined, so that moving code between the transport and the endpoints never touches them.
export { buildCreateLabelBody, type CreateDraftLabelOptions } from "./endpoints/labels.server";
export type { PurchaseOutcome } from "./endpoints/purchase.server";
export type { LabelVoid } from "./endpoints/void.server";
export type { CallOptions, ShippingLogEntry } from "./transport.server";
export type { FetchLike, RequestSlots } from "./transport-attempt.server";

export type ShippingClientOptions = TransportOptions;

export type ShippingClient = {
  getRates(request: RatesRequest, options?: CallOptions): Promise<Result<RatesResponse, ShippingError>>;
  createDraftLabel(
    request: CreateLabelRequest,
    options?: CreateDraftLabelOptions,
  ): Promise<Result<DraftLabel, ShippingError>>;
  getLabel(labelId: string, options?: CallOptions): Promise<Result<LabelRecord, ShippingError>>;
  /**
   * Buys a draft, never twice. An error without `outcomeUnknown` means the service did not buy
   * it; with `outcomeUnknown` it may have, and only reading the label back can tell.
   */
  purchaseLabel(labelId: string, options?: CallOptions): Promise<Result<PurchaseOutcome, ShippingError>>;
  /**
   * Asks the carrier to void a bought label and refund it; asking again is safe (one refund at
   * most). Ok: pending or voided. NOT_VOIDABLE (with `voidRefusal`) and NOT_FOUND are refusals;
   * `outcomeUnknown` means it may have been recorded.
   */
  voidLabel(labelId: string, options?: CallOptions): Promise<Result<LabelVoid, ShippingError>>;
  validateAddress(
    request: AddressValidationRequest,
    options?: CallOptions,
  ): Promise<Result<AddressValidationResult, ShippingError>>;
  /** Subscribes a URL to the organization's events; the answer carries the signing secret, only this once. */
  registerWebhookEndpoint(
    request: WebhookEndpointRequest,
    options?: CallOptions,
  ): Promise<Result<RegisteredWebhookEndpoint, ShippingError>>;
  listWebhookEndpoints(options?: CallOptions): Promise<Result<WebhookEndpoint[], ShippingError>>;
  /** NOT_FOUND when the service has no such endpoint for this key's organization. */
  deleteWebhookEndpoint(endpointId: string, options?: CallOptions): Promise<Result<void, ShippingError>>;
};

export function createShippingClient(options: ShippingClientOptions): ShippingClient {
  const transport = createTransport(options);
  return {
    getRates: (request, callOptions) => getRates(transport, request, callOptions),
    createDraftLabel: (request, createOptions) => createDraftLabel(transport, request, createOptions),
    getLabel: (labelId, callOptions) => getLabel(transport, labelId, callOptions),
    purchaseLabel: (labelId, callOptions) => purchaseLabel(transport, labelId, callOptions),
    voidLabel: (labelId, callOptions) => voidLabel(transport, labelId, callOptions),
    registerWebhookEndpoint: (request, callOptions) => registerWebhookEndpoint(transport, request, callOptions),
    listWebhookEndpoints: (callOptions) => listWebhookEndpoints(transport, callOptions),
    deleteWebhookEndpoint: (endpointId, callOptions) => deleteWebhookEndpoint(transport, endpointId, callOptions),
    validateAddress: (request, callOptions) => validateAddress(transport, request, callOptions),
  };
}
