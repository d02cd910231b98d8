// The one wire rule both rates and label creation apply to addresses: `state` is dropped where
// the service ignores it. Its own module so the two endpoint groups share it without either
// importing the other.

import { STATE_REQUIRED_COUNTRIES } from "../preflight/addresses";

/** Drops `state` where the service ignores it (it asks to omit it outside US, CA and AU). */
export function withoutForeignState<A extends { country?: string | undefined; state?: string | null | undefined }>(
  address: A,
): A {
  const country = address.country ?? "US";
  if (STATE_REQUIRED_COUNTRIES.includes(country) || address.state == null) return address;
  const copy = { ...address };
  delete copy.state;
  return copy;
}
