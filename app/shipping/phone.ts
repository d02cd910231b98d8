// Phone rules for international shipments: the service rejects missing, too-short and
// placeholder numbers (all zeros, ascending runs such as 1234567890).

export const MIN_PHONE_DIGITS = 7;

export type PhoneProblem = "missing" | "too_short" | "placeholder";

function isAscendingRun(digits: string): boolean {
  if (digits.length < 6) return false;
  for (let i = 1; i < digits.length; i++) {
    if (Number(digits[i]) !== (Number(digits[i - 1]) + 1) % 10) return false;
  }
  return true;
}

function isPlaceholder(digits: string): boolean {
  if (/^(\d)\1+$/.test(digits)) return true;
  // A placeholder is often typed after a real country code: "+1 1234567890", "+44 0123456789".
  for (let skip = 0; skip <= 3 && digits.length - skip >= 6; skip++) {
    if (isAscendingRun(digits.slice(skip))) return true;
    if (/^0+$/.test(digits.slice(skip))) return true;
  }
  return false;
}

/** Why a phone cannot be used on an international label, or null when it can. */
export function checkInternationalPhone(phone: string | null | undefined): PhoneProblem | null {
  if (phone == null || phone.trim() === "") return "missing";
  const digits = phone.replace(/\D/g, "");
  if (digits.length < MIN_PHONE_DIGITS) return "too_short";
  if (isPlaceholder(digits)) return "placeholder";
  return null;
}
