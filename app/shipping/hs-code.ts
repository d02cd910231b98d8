// An HS code's shape, checked before anything is sent (the service takes any string) and before
// one is saved to a product: customs forms print it with dots and spaces ("6109.10"), and what is
// left must be the 6-digit heading and up to four national digits.

export const HS_CODE_DIGITS = { min: 6, max: 10 } as const;

/** The code's digits once the dots and spaces a customs form prints are gone. */
export function hsCodeDigits(code: string): string {
  return code.replace(/[.\s]/g, "");
}

/** Why `code` is not an HS code, in the merchant's words; null when it is one. */
export function describeMalformedHsCode(code: string): string | null {
  const digits = hsCodeDigits(code);
  if (/^\d+$/.test(digits) && digits.length >= HS_CODE_DIGITS.min && digits.length <= HS_CODE_DIGITS.max) return null;
  return (
    `"${code}" is not an HS code: use ${HS_CODE_DIGITS.min} to ${HS_CODE_DIGITS.max} digits ` +
    `(dots and spaces are fine, as in 6109.10).`
  );
}
