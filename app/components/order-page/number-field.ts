/** A number field's text as the request holds it: empty or not a number is no value. */
export function parseNumberField(value: string): number | null {
  if (value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
