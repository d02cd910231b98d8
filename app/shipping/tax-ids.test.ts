import { describe, expect, it } from "vitest";

import { checkTaxIdForDestination, isValidCnpj, isValidCodiceFiscale, isValidCpf, isValidPartitaIva } from "./tax-ids";

describe("CPF", () => {
  it("accepts a CPF whose two check digits are right, with or without punctuation", () => {
    expect(isValidCpf("529.982.247-25")).toBe(true);
    expect(isValidCpf("52998224725")).toBe(true);
  });
  it("rejects a CPF with a wrong check digit", () => {
    expect(isValidCpf("52998224726")).toBe(false);
  });
  it("rejects repeated digits and wrong lengths", () => {
    expect(isValidCpf("11111111111")).toBe(false);
    expect(isValidCpf("5299822472")).toBe(false);
  });
});

describe("CNPJ", () => {
  it("accepts a CNPJ whose check digits are right", () => {
    expect(isValidCnpj("11.222.333/0001-81")).toBe(true);
  });
  it("rejects a CNPJ with a wrong check digit or length", () => {
    expect(isValidCnpj("11222333000182")).toBe(false);
    expect(isValidCnpj("1122233300018")).toBe(false);
    expect(isValidCnpj("00000000000000")).toBe(false);
  });
  it("accepts an alphanumeric CNPJ, whose check digits weigh each character's code minus 48, in any case and mask", () => {
    expect(isValidCnpj("12ABC34501DE35")).toBe(true);
    expect(isValidCnpj("12.ABC.345/01DE-35")).toBe(true);
    expect(isValidCnpj("12abc34501de35")).toBe(true);
  });
  it("rejects an alphanumeric CNPJ with a wrong check digit or a letter where a check digit goes", () => {
    expect(isValidCnpj("12ABC34501DE36")).toBe(false);
    expect(isValidCnpj("12ABC34501DE3A")).toBe(false);
    expect(isValidCnpj("12ABC34501D?35")).toBe(false);
  });
});

describe("partita IVA", () => {
  it("accepts an 11-digit number with a right Luhn-style check digit", () => {
    expect(isValidPartitaIva("12345670017")).toBe(true);
    expect(isValidPartitaIva("IT07643520567")).toBe(true);
  });
  it("rejects a wrong check digit or length", () => {
    expect(isValidPartitaIva("12345670018")).toBe(false);
    expect(isValidPartitaIva("1234567001")).toBe(false);
  });
  it("accepts every office code on the valid list: 001 to 100, 120, 121, 888 and 999", () => {
    for (const id of ["12345670017", "12345671007", "12345671205", "12345671213", "12345678887", "12345679992"]) {
      expect(isValidPartitaIva(id), id).toBe(true);
    }
  });
  it("rejects an office code outside the valid list even when the check digit is right", () => {
    // Each has a right Luhn check digit; offices 890, 000, 101, 119 and 122 are never issued.
    for (const id of ["12345678903", "12345670009", "12345671015", "12345671197", "12345671221"]) {
      expect(isValidPartitaIva(id), id).toBe(false);
    }
  });
  it("rejects a number whose first seven digits, the taxpayer's, are all zero", () => {
    expect(isValidPartitaIva("00000000018")).toBe(false);
  });
});

describe("codice fiscale", () => {
  it("accepts a code whose check character is right, in any case", () => {
    expect(isValidCodiceFiscale("RSSMRA85T10A562S")).toBe(true);
    expect(isValidCodiceFiscale("mrtmtt91d08f205j")).toBe(true);
  });
  it("rejects a wrong check character or a malformed code", () => {
    expect(isValidCodiceFiscale("RSSMRA85T10A562T")).toBe(false);
    expect(isValidCodiceFiscale("RSSMRA85T10A562")).toBe(false);
    expect(isValidCodiceFiscale("1234567890123456")).toBe(false);
  });
  it("accepts birth dates that exist: 29 February of a leap year, a woman's day plus 40, digits written as omocodia letters", () => {
    expect(isValidCodiceFiscale("RSSMRA84B29A562Y")).toBe(true);
    expect(isValidCodiceFiscale("RSSMRA85T71A562X")).toBe(true);
    expect(isValidCodiceFiscale("RSSMRA85D30H501J")).toBe(true);
    // RS = 56 and 1L = 10, 4N = 42: the same dates with their digits replaced.
    expect(isValidCodiceFiscale("RSSMRARST1LA562X")).toBe(true);
    expect(isValidCodiceFiscale("RSSMRARST4NA562Q")).toBe(true);
  });
  it("rejects a birth date that cannot exist even when the check character is right", () => {
    for (const id of [
      "RSSMRA85T32A562Y", // 32 December
      "RSSMRA85T40A562V", // day 40: neither a man's day nor a woman's (41-71)
      "RSSMRA85T00A562R", // day 0
      "RSSMRA85T72A562C", // a woman's 32 December
      "RSSMRA85T81A562Y", // day 81
      "RSSMRA85B30A562G", // 30 February
      "RSSMRA85B29A562Z", // 29 February of a year that is not a leap year
      "RSSMRA85D31H501I", // 31 April
    ]) {
      expect(isValidCodiceFiscale(id), id).toBe(false);
    }
  });
});

describe("tax id per destination", () => {
  it("accepts CPF or CNPJ for Brazil and codice fiscale or partita IVA for Italy", () => {
    expect(checkTaxIdForDestination("BR", "52998224725")).toEqual({ valid: true, kind: "cpf" });
    expect(checkTaxIdForDestination("BR", "11222333000181")).toEqual({ valid: true, kind: "cnpj" });
    expect(checkTaxIdForDestination("IT", "RSSMRA85T10A562S")).toEqual({ valid: true, kind: "codice_fiscale" });
    expect(checkTaxIdForDestination("IT", "12345670017")).toEqual({ valid: true, kind: "partita_iva" });
  });
  it("accepts an alphanumeric CNPJ for Brazil as a CNPJ", () => {
    expect(checkTaxIdForDestination("BR", "12.ABC.345/01DE-35")).toEqual({ valid: true, kind: "cnpj" });
  });
  it("refuses an Italian id for Brazil and says a CNPJ may carry letters", () => {
    const check = checkTaxIdForDestination("BR", "RSSMRA85T10A562S");
    expect(check).toEqual({
      valid: false,
      expected:
        "a CPF (11 digits) or a CNPJ (14 characters: 12 letters or digits, then 2 check digits) with valid check digits",
    });
  });
  it("asks nothing of other destinations", () => {
    expect(checkTaxIdForDestination("DE", "whatever")).toBeNull();
  });
});
