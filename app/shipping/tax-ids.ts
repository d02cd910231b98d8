// Check-digit validators for the tax ids the service demands for Brazil and Italy.
// A wrong check digit is caught here instead of as a customs hold days later.

export type TaxIdKind = "cpf" | "cnpj" | "codice_fiscale" | "partita_iva";

function digitsOf(value: string): number[] {
  return [...value].map(Number);
}

/** Brazilian individual taxpayer id: 11 digits, two mod-11 check digits. Dots and dashes allowed. */
export function isValidCpf(input: string): boolean {
  const value = input.replace(/[.\-\s]/g, "");
  if (!/^\d{11}$/.test(value)) return false;
  // Repeated digits pass the arithmetic but are never issued.
  if (/^(\d)\1{10}$/.test(value)) return false;
  const d = digitsOf(value);
  const checkDigit = (length: number): number => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += (d[i] ?? 0) * (length + 1 - i);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return checkDigit(9) === d[9] && checkDigit(10) === d[10];
}

/**
 * Brazilian company id: 14 characters, two mod-11 check digits with weights 2..9 cycling. Since
 * July 2026 the first twelve may be letters (IN RFB 2.229/2024): each character weighs its code
 * minus 48, so digits keep their value and "A" counts 17. Masks and lower case are accepted.
 */
export function isValidCnpj(input: string): boolean {
  const value = input.replace(/[.\-/\s]/g, "").toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value)) return false;
  if (/^(\d)\1{13}$/.test(value)) return false;
  const values = [...value].map((char) => char.charCodeAt(0) - 48);
  const checkDigit = (length: number): number => {
    let sum = 0;
    let weight = 2;
    for (let i = length - 1; i >= 0; i--) {
      sum += (values[i] ?? 0) * weight;
      weight = weight === 9 ? 2 : weight + 1;
    }
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return checkDigit(12) === values[12] && checkDigit(13) === values[13];
}

/**
 * Italian VAT number: 11 digits: the taxpayer's seven, the issuing office's three, a Luhn-style
 * check digit. Offices are the provinces' 001-100 and 120, 121, 888, 999 (the EU VIES rule); a
 * taxpayer number of seven zeros is never issued.
 */
export function isValidPartitaIva(input: string): boolean {
  const value = input.replace(/\s/g, "").replace(/^IT/i, "");
  if (!/^\d{11}$/.test(value)) return false;
  if (value.startsWith("0000000")) return false;
  const office = Number(value.slice(7, 10));
  if (!((office >= 1 && office <= 100) || [120, 121, 888, 999].includes(office))) return false;
  const d = digitsOf(value);
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const digit = d[i] ?? 0;
    if (i % 2 === 0) {
      sum += digit;
    } else {
      const doubled = digit * 2;
      sum += doubled > 9 ? doubled - 9 : doubled;
    }
  }
  return (10 - (sum % 10)) % 10 === d[10];
}

// Values of characters in odd (1st, 3rd, ...) positions of a codice fiscale.
// prettier-ignore
const ODD_VALUES: Record<string, number> = {
  "0": 1, "1": 0, "2": 5, "3": 7, "4": 9, "5": 13, "6": 15, "7": 17, "8": 19, "9": 21,
  A: 1, B: 0, C: 5, D: 7, E: 9, F: 13, G: 15, H: 17, I: 19, J: 21, K: 2, L: 4, M: 18,
  N: 20, O: 11, P: 3, Q: 6, R: 8, S: 12, T: 14, U: 16, V: 10, W: 22, X: 25, Y: 24, Z: 23,
};

function evenValue(char: string): number {
  return /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 65;
}

// Omocodia: digits in the date and place parts may be replaced by these letters.
const CODICE_FISCALE_PATTERN = /^[A-Z]{6}[\dLMNPQRSTUV]{2}[ABCDEHLMPRST][\dLMNPQRSTUV]{2}[A-Z][\dLMNPQRSTUV]{3}[A-Z]$/;

const OMOCODIA_LETTERS = "LMNPQRSTUV";
const MONTH_LETTERS = "ABCDEHLMPRST";
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function omocodiaDigits(part: string): number {
  return Number([...part].map((char) => (/\d/.test(char) ? char : String(OMOCODIA_LETTERS.indexOf(char)))).join(""));
}

/**
 * Whether the birth date in positions 7-11 exists: day 1-31 for men, day plus 40 for women. The
 * century is not written, so 29 February passes in any year divisible by four (2000 was a leap
 * year, so a "00" may be either century).
 */
function hasPossibleBirthDate(value: string): boolean {
  const year = omocodiaDigits(value.slice(6, 8));
  const month = MONTH_LETTERS.indexOf(value.charAt(8));
  const codedDay = omocodiaDigits(value.slice(9, 11));
  const day = codedDay > 40 ? codedDay - 40 : codedDay;
  if (day < 1 || day > (DAYS_IN_MONTH[month] ?? 0)) return false;
  return !(month === 1 && day === 29 && year % 4 !== 0);
}

/**
 * Italian personal tax code: 16 characters, the last a check letter over the first 15, with a
 * birth date that exists.
 */
export function isValidCodiceFiscale(input: string): boolean {
  const value = input.replace(/\s/g, "").toUpperCase();
  if (!CODICE_FISCALE_PATTERN.test(value)) return false;
  if (!hasPossibleBirthDate(value)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const char = value.charAt(i);
    sum += i % 2 === 0 ? (ODD_VALUES[char] ?? 0) : evenValue(char);
  }
  return String.fromCharCode(65 + (sum % 26)) === value.charAt(15);
}

export type TaxIdCheck = { valid: true; kind: TaxIdKind } | { valid: false; expected: string };

/** Checks the tax id a destination requires; null when the destination needs none. */
export function checkTaxIdForDestination(country: string, taxId: string): TaxIdCheck | null {
  if (country === "BR") {
    if (isValidCpf(taxId)) return { valid: true, kind: "cpf" };
    if (isValidCnpj(taxId)) return { valid: true, kind: "cnpj" };
    return {
      valid: false,
      expected:
        "a CPF (11 digits) or a CNPJ (14 characters: 12 letters or digits, then 2 check digits) with valid check digits",
    };
  }
  if (country === "IT") {
    if (isValidCodiceFiscale(taxId)) return { valid: true, kind: "codice_fiscale" };
    if (isValidPartitaIva(taxId)) return { valid: true, kind: "partita_iva" };
    return {
      valid: false,
      expected:
        "a codice fiscale (16 characters, with a birth date that exists) or a partita IVA (11 digits, with a valid office code) with a valid check character",
    };
  }
  return null;
}

/**
 * The destinations whose customs need the recipient's tax id, and what it is called there. The
 * one place this rule is written: preflight and the customs prefill both read it.
 */
export const TAX_ID_RULES = {
  BR: { countryName: "Brazil", idNames: "CPF or CNPJ" },
  IT: { countryName: "Italy", idNames: "codice fiscale or partita IVA" },
} as const satisfies Record<string, { countryName: string; idNames: string }>;
export type TaxIdCountry = keyof typeof TAX_ID_RULES;

export const TAX_ID_COUNTRIES: readonly TaxIdCountry[] = Object.keys(TAX_ID_RULES) as TaxIdCountry[];

export function taxIdRuleFor(country: string): (typeof TAX_ID_RULES)[TaxIdCountry] | null {
  return Object.hasOwn(TAX_ID_RULES, country) ? TAX_ID_RULES[country as TaxIdCountry] : null;
}
