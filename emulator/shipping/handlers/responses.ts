// The response shapes every handler shares: JSON with the request id, the contract's error envelope,
// field problems listed at once, and the two errors more than one route answers the same way.

import type { CoreResponse } from "../core";
import { type FieldProblem, isJsonObject, type JsonObject } from "../validation";

const JSON_TYPE = "application/json; charset=utf-8";

export function respondJson(
  requestId: string,
  status: number,
  body: JsonObject,
  headers?: Record<string, string>,
): CoreResponse {
  return {
    status,
    headers: { "content-type": JSON_TYPE, "x-request-id": requestId, ...headers },
    body: JSON.stringify({ ...body, request_id: requestId }),
  };
}

export function respondError(
  requestId: string,
  status: number,
  code: string,
  message: string,
  fields?: FieldProblem[],
  extra?: JsonObject,
  headers?: Record<string, string>,
): CoreResponse {
  const error: JsonObject = { code, message };
  if (fields !== undefined && fields.length > 0) error.fields = fields;
  return respondJson(requestId, status, { error, ...extra }, headers);
}

export function respondProblems(requestId: string, code: string, problems: FieldProblem[]): CoreResponse {
  const [first] = problems;
  const summary = first === undefined ? "Invalid request" : `${first.field} ${first.message}`;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : "";
  return respondError(requestId, 400, code, summary + more, problems);
}

export function isError(value: unknown): value is CoreResponse {
  return isJsonObject(value) && typeof value.status === "number" && "body" in value;
}

export function respondBothParcels(requestId: string): CoreResponse {
  return respondError(requestId, 400, "VALIDATION_ERROR", "Send parcel or parcels, not both", [
    { field: "parcel", message: "cannot be sent together with parcels" },
    { field: "parcels", message: "cannot be sent together with parcel" },
  ]);
}

export function respondCarrierAccountNotFound(requestId: string): CoreResponse {
  return respondError(
    requestId,
    400,
    "CARRIER_ACCOUNT_NOT_FOUND",
    "carrier_account_id is not one of this organization's accounts",
    [{ field: "carrier_account_id", message: "not found" }],
  );
}
