// POST /v1/rates: quoting is safe to repeat, so it retries on anything transient.

import { err, type Result } from "~/utils/result";

import type { ShippingError } from "../errors";
import { type RatesRequest, RatesRequestSchema, type RatesResponse, RatesResponseSchema } from "../schemas";
import type { CallOptions, ShippingTransport } from "../transport.server";
import { describeZodIssues, invalidRequest } from "../transport-outcome.server";
import { withoutForeignState } from "./foreign-state";
import { takeNestedShipDate } from "./label-options";

export async function getRates(
  transport: ShippingTransport,
  request: RatesRequest,
  callOptions?: CallOptions,
): Promise<Result<RatesResponse, ShippingError>> {
  const parsed = RatesRequestSchema.safeParse(request);
  if (!parsed.success) return err(invalidRequest("getRates", describeZodIssues(parsed.error.issues)));
  const body = { ...parsed.data };
  if (body.parcel !== undefined && body.parcels !== undefined) {
    return err(invalidRequest("getRates", [{ path: "parcels", message: "send parcel or parcels, not both" }]));
  }
  body.from_address = withoutForeignState(body.from_address);
  body.to_address = withoutForeignState(body.to_address);
  // Options are quoted as sent (a label from the rate must carry the same); the date goes top level.
  const nested = takeNestedShipDate(body.options);
  if (nested.shipDate !== undefined && body.ship_date !== undefined && nested.shipDate !== body.ship_date) {
    return err(invalidRequest("getRates", [{ path: "options.ship_date", message: "differs from ship_date" }]));
  }
  if (nested.options !== undefined) body.options = nested.options;
  if (body.ship_date === undefined && nested.shipDate !== undefined) body.ship_date = nested.shipDate;
  return transport.call({
    operation: "getRates",
    method: "POST",
    path: "/v1/rates",
    body,
    policy: "safe",
    parse: (b) => RatesResponseSchema.safeParse(b),
    deadline: transport.deadlineOf(callOptions),
  });
}
