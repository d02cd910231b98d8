// Differential tests: our tax-id validators against well-kept reference libraries, over generated
// valid ids and mutations of them. A disagreement is a bug on one side; the few deliberate
// differences are listed where they are filtered out, with the rule we follow instead.
//
// References (devDependencies only, never shipped):
// - stdnum (koblas/stdnum-js, a port of python-stdnum): CPF, CNPJ including the alphanumeric
//   CNPJ of IN RFB 2.229/2024, partita IVA with its office-code list, and the codice fiscale's
//   check character.
// - @marketto/codice-fiscale-utils: its full codice fiscale pattern, which knows which birth
//   dates exist (days per month, 29 February in leap years, a woman's day plus 40, omocodia).

import { CodiceFiscaleUtils } from "@marketto/codice-fiscale-utils";
import fc from "fast-check";
import { stdnum, type Validator } from "stdnum";
import { describe, expect, it } from "vitest";

import { isValidCnpj, isValidCodiceFiscale, isValidCpf, isValidPartitaIva } from "./tax-ids";

// One fixed seed so a failure replays; a few hundred cases per property keep the file fast.
const RUNS = { seed: 22_15, numRuns: 400 } as const;

const DIGITS = "0123456789";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const CONSONANTS = "BCDFGHJKLMNPQRSTVWXYZ";
const MONTH_LETTERS = "ABCDEHLMPRST";
// Omocodia: a digit of the date or place may be written as the letter at its index.
const OMOCODIA = "LMNPQRSTUV";

function referenceValidator(country: string, name: string): Validator {
  const validator = stdnum[country]?.[name];
  if (!validator) throw new Error(`stdnum has no ${country}.${name}`);
  return validator;
}
const stdnumCodiceFiscale = referenceValidator("IT", "codicefiscale");
const refCpf = (value: string): boolean => referenceValidator("BR", "cpf").validate(value).isValid;
const refCnpj = (value: string): boolean => referenceValidator("BR", "cnpj").validate(value).isValid;
const refPartitaIva = (value: string): boolean => referenceValidator("IT", "iva").validate(value).isValid;

// The pattern without personal data matches any well-formed code whose date exists; it does not
// check the 16th character, which stdnum does. No place connector: without a place it is not asked.
const codiceFiscaleUtils = new CodiceFiscaleUtils({} as never);
const codiceFiscalePattern = await codiceFiscaleUtils.pattern.codiceFiscale();
const refCodiceFiscale = (value: string): boolean =>
  codiceFiscalePattern.test(value.replace(/ /g, "")) && stdnumCodiceFiscale.validate(value).isValid;

const charOf = (alphabet: string) => fc.constantFrom(...alphabet.split(""));
const stringOf = (alphabet: string, length: number) =>
  fc.array(charOf(alphabet), { minLength: length, maxLength: length }).map((chars) => chars.join(""));

/** The completion of `prefix` the reference accepts: the generator never uses our own code. */
function completeWith(prefix: string, suffixes: readonly string[], accepts: (value: string) => boolean): string | null {
  for (const suffix of suffixes) if (accepts(prefix + suffix)) return prefix + suffix;
  return null;
}
const ONE_LETTER = LETTERS.split("");

/**
 * Appends the two mod-11 check digits of a CPF (weights 2, 3, ... from the right) or a CNPJ
 * (weights 2..9 cycling), each character weighing its code minus 48, as the Receita Federal
 * publishes it. Only a generator: the reference still judges every case, and "all accepted"
 * below catches this helper going wrong.
 */
function withMod11CheckDigits(prefix: string, cycle: number): string {
  let value = prefix;
  for (let round = 0; round < 2; round++) {
    let sum = 0;
    [...value].reverse().forEach((char, i) => (sum += (char.charCodeAt(0) - 48) * ((i % cycle) + 2)));
    value += String(sum % 11 < 2 ? 0 : 11 - (sum % 11));
  }
  return value;
}

/** One edit of the kind a person makes: a wrong character, two swapped, one left out or doubled. */
function mutationOf(valid: fc.Arbitrary<string>, alphabet: string): fc.Arbitrary<string> {
  return fc.tuple(valid, fc.nat(), charOf(alphabet), fc.nat(3)).map(([value, at, char, kind]) => {
    const i = at % value.length;
    if (kind === 0) return value.slice(0, i) + char + value.slice(i + 1);
    if (kind === 1) return value.slice(0, i) + value.slice(i + 1, i + 2) + value.charAt(i) + value.slice(i + 2);
    if (kind === 2) return value.slice(0, i) + value.slice(i + 1);
    return value.slice(0, i) + char + value.slice(i);
  });
}

/**
 * Checks that ours agrees with the reference on every case, and that the reference accepted and
 * refused enough of them: a generator gone wrong would otherwise pass unnoticed.
 */
function expectAgreement(
  cases: fc.Arbitrary<string>,
  ours: (value: string) => boolean,
  reference: (value: string) => boolean,
  expected: "all accepted" | "mixed" = "mixed",
): void {
  let accepted = 0;
  let refused = 0;
  fc.assert(
    fc.property(cases, (value) => {
      const verdict = reference(value);
      if (verdict) accepted++;
      else refused++;
      expect(ours(value), `${JSON.stringify(value)}: the reference says ${verdict}`).toBe(verdict);
    }),
    RUNS,
  );
  if (expected === "all accepted") {
    expect(refused, "generated valid ids the reference refuses").toBe(0);
  } else {
    expect(accepted, "cases the reference accepts").toBeGreaterThan(RUNS.numRuns / 20);
    expect(refused, "cases the reference refuses").toBeGreaterThan(RUNS.numRuns / 20);
  }
}

// Both refuse what stdnum accepts here on purpose: the Receita Federal never issues a CPF or CNPJ
// of one repeated digit, though 000.000.000-00 passes the arithmetic.
const isRepeatedDigit = (value: string): boolean => /^(\d)\1+$/.test(value.replace(/[\s./-]/g, ""));

describe("CPF against stdnum", () => {
  const valid = stringOf(DIGITS, 9)
    .map((prefix) => withMod11CheckDigits(prefix, 11))
    .filter((value) => !isRepeatedDigit(value));
  const masked = valid.map((v) => `${v.slice(0, 3)}.${v.slice(3, 6)}.${v.slice(6, 9)}-${v.slice(9)}`);

  it("agrees on generated valid CPFs, bare and masked", () => {
    expectAgreement(fc.oneof(valid, masked), isValidCpf, refCpf, "all accepted");
  });

  it("agrees on one-character mutations of valid CPFs", () => {
    const cases = fc.oneof(mutationOf(valid, `${DIGITS}A .-`), mutationOf(masked, DIGITS));
    expectAgreement(
      cases.filter((value) => !isRepeatedDigit(value)),
      isValidCpf,
      refCpf,
    );
  });
});

describe("CNPJ against stdnum", () => {
  // Since July 2026 the first twelve characters may be letters; older CNPJs are all digits.
  const prefix = fc.oneof(stringOf(DIGITS, 12), stringOf(DIGITS + LETTERS, 12), stringOf(`${DIGITS}ABC`, 12));
  const valid = prefix.map((p) => withMod11CheckDigits(p, 8)).filter((value) => !isRepeatedDigit(value));
  const masked = valid.map(
    (v) => `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8, 12)}-${v.slice(12)}`,
  );

  it("agrees on generated valid CNPJs, numeric and alphanumeric, bare, masked and in lower case", () => {
    const cases = fc.oneof(
      valid,
      masked,
      valid.map((v) => v.toLowerCase()),
    );
    expectAgreement(cases, isValidCnpj, refCnpj, "all accepted");
  });

  it("agrees on one-character mutations of valid CNPJs, including letters where a check digit goes", () => {
    const cases = fc.oneof(mutationOf(valid, `${DIGITS}${LETTERS} ./-`), mutationOf(masked, `${DIGITS}AZ`));
    expectAgreement(
      cases.filter((value) => !isRepeatedDigit(value)),
      isValidCnpj,
      refCnpj,
    );
  });
});

describe("partita IVA against stdnum", () => {
  // Office codes from the valid list and from anywhere, so that many have a right check digit
  // but an office that is never issued.
  const office = fc.oneof(
    fc.integer({ min: 1, max: 100 }),
    fc.constantFrom(120, 121, 888, 999),
    fc.integer({ min: 0, max: 999 }),
  );
  const luhnDigit = (prefix: string): string => {
    let sum = 0;
    [...prefix].forEach((char, i) => {
      const doubled = Number(char) * (i % 2 === 1 ? 2 : 1);
      sum += doubled > 9 ? doubled - 9 : doubled;
    });
    return String((10 - (sum % 10)) % 10);
  };
  // Both refuse what stdnum-js accepts here on purpose: a taxpayer number of seven zeros is never
  // issued (the EU VIES rule, also python-stdnum's).
  const isZeroTaxpayer = (value: string): boolean => /^(IT)?0{7}/i.test(value.replace(/\s/g, ""));
  const rightCheckDigit = fc
    .tuple(stringOf(DIGITS, 7), office)
    .map(([taxpayer, code]) => taxpayer + String(code).padStart(3, "0"))
    .map((prefix) => prefix + luhnDigit(prefix))
    .filter((value) => !isZeroTaxpayer(value));

  it("agrees on generated numbers with a right check digit, over valid and invalid office codes", () => {
    const cases = fc.oneof(
      rightCheckDigit,
      rightCheckDigit.map((v) => `IT${v}`),
    );
    expectAgreement(cases, isValidPartitaIva, refPartitaIva);
  });

  it("agrees on one-character mutations of numbers with a right check digit", () => {
    const cases = mutationOf(rightCheckDigit, `${DIGITS}I `).filter((value) => !isZeroTaxpayer(value));
    expectAgreement(cases, isValidPartitaIva, refPartitaIva);
  });
});

describe("codice fiscale against codice-fiscale-utils and stdnum", () => {
  const omocode = (digits: string, letters: readonly boolean[], offset: number) =>
    [...digits].map((d, i) => (letters[offset + i] ? OMOCODIA.charAt(Number(d)) : d)).join("");
  // Names are always consonants here: the reference also checks that the name parts could come
  // from a name, which we do not (a code the Agenzia assigned stays valid as issued).
  const code = fc
    .record({
      names: stringOf(CONSONANTS, 6),
      year: fc.integer({ min: 0, max: 99 }),
      month: charOf(MONTH_LETTERS),
      // Days 1-31 for men, 41-71 for women, and the impossible ones around them.
      day: fc.oneof(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 41, max: 71 }), fc.integer({ min: 0, max: 99 })),
      // A municipality (A-M) or a foreign country (Z); the reference refuses other letters.
      placeLetter: charOf("ABCDEFGHIJKLMZ"),
      place: fc.integer({ min: 100, max: 999 }),
      letters: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
    })
    .map(({ names, year, month, day, placeLetter, place, letters }) => {
      const date = omocode(String(year).padStart(2, "0"), letters, 0) + month;
      const dayPart = omocode(String(day).padStart(2, "0"), letters, 2);
      return completeWith(
        names + date + dayPart + placeLetter + omocode(String(place), letters, 4),
        ONE_LETTER,
        (value) => stdnumCodiceFiscale.validate(value).isValid,
      );
    })
    .filter((value): value is string => value !== null);

  it("agrees on generated codes with a right check character, over possible and impossible birth dates", () => {
    expectAgreement(
      fc.oneof(
        code,
        code.map((v) => v.toLowerCase()),
      ),
      isValidCodiceFiscale,
      refCodiceFiscale,
    );
  });

  it("agrees on one-character mutations of the date and check character, the check character often made right again", () => {
    const cases = fc
      .tuple(code, fc.constantFrom(6, 7, 8, 9, 10, 15), charOf(DIGITS + LETTERS), fc.boolean())
      .map(([value, at, char, recheck]) => {
        const mutated = value.slice(0, at) + char + value.slice(at + 1);
        // Made right again, only the date decides; left as is, mostly the check character does.
        const rechecked = recheck
          ? completeWith(mutated.slice(0, 15), ONE_LETTER, (v) => stdnumCodiceFiscale.validate(v).isValid)
          : null;
        return rechecked ?? mutated;
      });
    expectAgreement(cases, isValidCodiceFiscale, refCodiceFiscale);
  });
});
