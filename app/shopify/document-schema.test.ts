import { describe, expect, it } from "vitest";
import { z } from "zod";

import type { FulfillmentOrderStateQuery, LocalizedFieldForLabelFragment } from "~/types/admin.generated";

import { schemaFor } from "./document-schema";

// The checks are the typecheck's: each @ts-expect-error below fails `tsc` if schemaFor stops
// refusing that kind of drift. The runtime assertions only show the schema is returned unchanged.

const fulfillmentOrder = { id: z.string(), status: z.string(), orderId: z.string(), orderName: z.string() };
const localizedField = {
  key: z.string(),
  purpose: z.string(),
  countryCode: z.string(),
  title: z.string(),
  value: z.string(),
};

describe("schemaFor", () => {
  it("returns a schema that reads exactly its document unchanged", () => {
    const schema = z.object(localizedField);
    expect(schemaFor<LocalizedFieldForLabelFragment>()(schema)).toBe(schema);
  });

  it("accepts an enum read as a string and a nullable object read as nullable", () => {
    const schema = schemaFor<FulfillmentOrderStateQuery>()(
      z.object({ fulfillmentOrder: z.object(fulfillmentOrder).nullable() }),
    );
    expect(schema.safeParse({ fulfillmentOrder: null }).success).toBe(true);
  });

  it("refuses a schema that skips, adds or narrows a field, at compile time", () => {
    const { value: _value, ...withoutValue } = localizedField;
    // @ts-expect-error skips `value`, which the document selects
    schemaFor<LocalizedFieldForLabelFragment>()(z.object(withoutValue));
    // @ts-expect-error reads `note`, which the document doesn't select
    schemaFor<LocalizedFieldForLabelFragment>()(z.object({ ...localizedField, note: z.string().nullish() }));
    // @ts-expect-error refuses a purpose the next API version may add
    schemaFor<LocalizedFieldForLabelFragment>()(z.object({ ...localizedField, purpose: z.enum(["SHIPPING", "TAX"]) }));
    // @ts-expect-error refuses the null Shopify sends for a fulfillment order it can't find
    schemaFor<FulfillmentOrderStateQuery>()(z.object({ fulfillmentOrder: z.object(fulfillmentOrder) }));
    expect(true).toBe(true);
  });
});
