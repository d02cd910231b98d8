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
});

describe("partita IVA", () => {
  it("accepts an 11-digit number with a right Luhn-style check digit", () => {
    expect(isValidPartitaIva("12345678903")).toBe(true);
    expect(isValidPartitaIva("IT07643520567")).toBe(true);
  });
  it("rejects a wrong check digit or length", () => {
    expect(isValidPartitaIva("12345678901")).toBe(false);
    expect(isValidPartitaIva("1234567890")).toBe(false);
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
});

describe("tax id per destination", () => {
  it("accepts CPF or CNPJ for Brazil and codice fiscale or partita IVA for Italy", () => {
    expect(checkTaxIdForDestination("BR", "52998224725")).toEqual({ valid: true, kind: "cpf" });
    expect(checkTaxIdForDestination("BR", "11222333000181")).toEqual({ valid: true, kind: "cnpj" });
    expect(checkTaxIdForDestination("IT", "RSSMRA85T10A562S")).toEqual({ valid: true, kind: "codice_fiscale" });
    expect(checkTaxIdForDestination("IT", "12345678903")).toEqual({ valid: true, kind: "partita_iva" });
  });
  it("refuses an Italian id for Brazil and says what is expected", () => {
    const check = checkTaxIdForDestination("BR", "RSSMRA85T10A562S");
    expect(check?.valid).toBe(false);
  });
  it("asks nothing of other destinations", () => {
    expect(checkTaxIdForDestination("DE", "whatever")).toBeNull();
  });
});
