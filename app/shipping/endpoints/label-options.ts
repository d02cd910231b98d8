// The one wire rule both rates and label creation apply to `options`: a ship date nested there
// is taken out, so that the date is sent in one place only, top level.

import type { LabelOptions } from "../schemas";

/** `options` without `ship_date` (undefined when there were none) and the date it carried. */
export function takeNestedShipDate(options: LabelOptions | undefined): {
  options: LabelOptions | undefined;
  shipDate: string | undefined;
} {
  if (options === undefined || !("ship_date" in options)) return { options, shipDate: undefined };
  const { ship_date: shipDate, ...rest } = options;
  return { options: rest, shipDate };
}
