import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";

import {
  callApi,
  CUSTOMS,
  DE_TO,
  domesticDraft,
  errorOf,
  getOrganization,
  getRates,
  internationalDraft,
  PARCEL,
  setUpEmulatorServer,
  US_FROM,
  US_TO,
} from "./test-support";

const server = setUpEmulatorServer();
const createLabel = (body: unknown, key?: string) => callApi(server.url(), "POST", "/v1/labels", { body, key });
const purchase = (id: unknown, key?: string) =>
  callApi(server.url(), "POST", `/v1/labels/${String(id)}/purchase`, { key });
const quoteBody = { from_address: US_FROM, to_address: US_TO, parcel: PARCEL };

function toCents(amount: unknown): number {
  return Math.round(Number(amount) * 100);
}

describe("rates", () => {
  it("quotes an international shipment without customs", async () => {
    const rates = await getRates(server.url(), { from_address: US_FROM, to_address: DE_TO, parcel: PARCEL });
    expect(rates.map((r) => r.service_code).sort()).toEqual(
      [
        "svc_dhl_express_worldwide",
        "svc_fedex_intl_priority",
        "svc_ups_worldwide_saver",
        "svc_usps_priority_intl",
      ].sort(),
    );
  });

  it("offers only UPS Ground for multi-piece and an empty list, not an error, for any other carrier", async () => {
    const multi = { from_address: US_FROM, to_address: US_TO, parcels: [PARCEL, PARCEL] };
    const rates = await getRates(server.url(), multi);
    expect(rates.map((r) => r.service_code)).toEqual(["svc_ups_ground"]);
    const usps = await callApi(server.url(), "POST", "/v1/rates", { body: { ...multi, carrier: "USPS" } });
    expect(usps.status).toBe(200);
    expect(usps.body.rates).toEqual([]);
  });

  it("quotes the price of the whole multi-piece shipment", async () => {
    const [one] = await getRates(server.url(), { ...quoteBody, carrier: "UPS", parcels: [PARCEL], parcel: undefined });
    const [three] = await getRates(server.url(), {
      ...quoteBody,
      carrier: "UPS",
      parcels: [PARCEL, PARCEL, PARCEL],
      parcel: undefined,
    });
    expect(toCents(three?.amount)).toBeGreaterThan(2 * toCents(one?.amount));
    const draft = await createLabel({
      ...quoteBody,
      parcel: undefined,
      parcels: [PARCEL, PARCEL, PARCEL],
      rate_id: three?.rate_id,
    });
    const bought = await purchase(draft.body.id);
    expect(bought.body.charged).toBe(three?.amount);
  });

  it("prices from weight units, dimensions and distance", async () => {
    const price = async (body: Record<string, unknown>): Promise<number> =>
      toCents(
        (await getRates(server.url(), { ...body, carrier: "USPS" })).find((r) => r.service_code === "svc_usps_priority")
          ?.amount,
      );
    const base = await price(quoteBody);
    expect(await price({ ...quoteBody, parcel: { ...PARCEL, weight: 24, weight_unit: "lb" } })).toBeGreaterThan(base);
    expect(await price({ ...quoteBody, parcel: { ...PARCEL, weight: 680, weight_unit: "g" } })).toBe(base);
    expect(
      await price({
        ...quoteBody,
        to_address: {
          ...US_TO,
          street2: undefined,
          street1: "1 Main St",
          city: "Palo Alto",
          zip: "94301",
          state: "CA",
        },
      }),
    ).toBeLessThan(base);
  });

  it("does not bill the address validation performed inside rates", async () => {
    const res = await callApi(server.url(), "POST", "/v1/rates", { body: quoteBody });
    expect(res.body).toHaveProperty(["address_validation", "to_address", "residential"], true);
    expect(JSON.stringify(res.body)).not.toContain("billed");
    const org = await getOrganization(server.url(), "org_demo");
    expect(org.validations_billed).toBe(0);
    expect(org.balance).toBe("100000.00");
  });
});

describe("purchase", () => {
  it("charges the balance exactly once and returns the purchased label", async () => {
    const [rate] = await getRates(server.url(), quoteBody);
    const draft = await createLabel({ ...quoteBody, rate_id: rate?.rate_id });
    const res = await purchase(draft.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "purchased",
      charged: rate?.amount,
      label_format: "pdf",
      package_count: 1,
    });
    expect(res.body.rate).toMatchObject({ rate_id: rate?.rate_id, amount: rate?.amount, currency: "USD" });
    expect(res.body.label_url).toBe(`${server.url()}/files/${String(draft.body.id)}.pdf`);
    const org = await getOrganization(server.url(), "org_demo");
    expect(org.charges).toHaveLength(1);
    expect(toCents(org.balance)).toBe(10_000_000 - toCents(rate?.amount));
  });

  it("answers a second purchase with 409 ALREADY_PURCHASED carrying the label, without charging again", async () => {
    const draft = await createLabel(domesticDraft());
    const first = await purchase(draft.body.id);
    const second = await purchase(draft.body.id);
    expect(second.status).toBe(409);
    expect(errorOf(second).code).toBe("ALREADY_PURCHASED");
    expect(second.body.label).toMatchObject({
      id: draft.body.id,
      status: "purchased",
      tracking_numbers: first.body.tracking_numbers,
    });
    expect((await getOrganization(server.url(), "org_demo")).charges).toHaveLength(1);
  });

  it("issues one tracking number per box", async () => {
    const draft = await createLabel(
      domesticDraft({ carrier: "UPS", service: "UPS Ground", parcel: undefined, parcels: [PARCEL, PARCEL, PARCEL] }),
    );
    const res = await purchase(draft.body.id);
    const tracking = res.body.tracking_numbers as string[];
    expect(tracking).toHaveLength(3);
    expect(new Set(tracking).size).toBe(3);
    expect(tracking[0]).toMatch(/^1Z[0-9A-Z]{16}$/);
    expect(res.body.package_count).toBe(3);
    expect(String(res.body.tracking_url)).toContain(tracking[0]);
  });

  it("refuses a USPS purchase above 2,500 USD declared value without eel_pfc with EXPORT_DECLARATION_REQUIRED", async () => {
    const draft = await createLabel(internationalDraft({ customs: { ...CUSTOMS, value: 2600 } }));
    expect(draft.status).toBe(201);
    const res = await purchase(draft.body.id);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("EXPORT_DECLARATION_REQUIRED");
    expect((await getOrganization(server.url(), "org_demo")).charges).toHaveLength(0);
    const withItn = await createLabel(
      internationalDraft({ customs: { ...CUSTOMS, value: 2600, eel_pfc: "AES X20261122123456" } }),
    );
    expect((await purchase(withItn.body.id)).status).toBe(200);
    const atThreshold = await createLabel(internationalDraft({ customs: { ...CUSTOMS, value: 2500 } }));
    expect((await purchase(atThreshold.body.id)).status).toBe(200);
  });

  it("re-prices when ship_date differs from the quote date, so charged differs from the rate", async () => {
    const [rate] = await getRates(server.url(), { ...quoteBody, ship_date: "2026-11-23" });
    const same = await createLabel({ ...quoteBody, rate_id: rate?.rate_id, ship_date: "2026-11-23" });
    expect((await purchase(same.body.id)).body.charged).toBe(rate?.amount);
    const moved = await createLabel({ ...quoteBody, rate_id: rate?.rate_id, options: { ship_date: "2026-11-27" } });
    const res = await purchase(moved.body.id);
    expect(res.status).toBe(200);
    expect((res.body.rate as { amount: string }).amount).toBe(rate?.amount);
    expect(res.body.charged).not.toBe(rate?.amount);
  });

  it("prices carrier+service drafts with the cheapest matching rate at purchase", async () => {
    const rates = await getRates(server.url(), { ...quoteBody, carrier: "UPS", carrier_account_id: "ca_demo_ups" });
    const negotiated = rates.find((r) => r.service_code === "svc_ups_ground");
    const retail = (await getRates(server.url(), { ...quoteBody, carrier: "UPS" })).find(
      (r) => r.service_code === "svc_ups_ground",
    );
    expect(toCents(negotiated?.amount)).toBeLessThan(toCents(retail?.amount));
    const draft = await createLabel({
      ...quoteBody,
      carrier: "UPS",
      service: "UPS Ground",
      carrier_account_id: "ca_demo_ups",
    });
    const res = await purchase(draft.body.id);
    expect(res.body.charged).toBe(negotiated?.amount);
    const plain = await createLabel({ ...quoteBody, carrier: "UPS", service_code: "svc_ups_ground" });
    expect((await purchase(plain.body.id)).body.charged).toBe(retail?.amount);
  });

  it("refuses a purchase the balance cannot cover with 402 INSUFFICIENT_BALANCE", async () => {
    const draft = await createLabel(domesticDraft(), "sk_live_poor");
    const res = await purchase(draft.body.id, "sk_live_poor");
    expect(res.status).toBe(402);
    expect(errorOf(res).code).toBe("INSUFFICIENT_BALANCE");
    expect((await getOrganization(server.url(), "org_poor")).balance).toBe("1.00");
  });

  it("answers 404 NOT_FOUND for an unknown label", async () => {
    const res = await purchase("lbl_unknown");
    expect(res.status).toBe(404);
    expect(errorOf(res).code).toBe("NOT_FOUND");
  });
});

describe("printed labels", () => {
  const longCompany = "Northwind Traders International Holdings LLC";
  const longName = "Maximiliana Alexandra Featherstonehaugh-Smythe";

  async function buyZpl(carrier: string, service: string): Promise<string> {
    const draft = await createLabel(
      domesticDraft({
        carrier,
        service,
        label_format: "zpl",
        to_address: { ...US_TO, company: longCompany, name: longName },
      }),
    );
    const bought = await purchase(draft.body.id);
    return (await fetch(String(bought.body.label_url))).text();
  }

  it("prints the company as the name line and the name as an attention line for UPS, each cut to 35 characters", async () => {
    const zpl = await buyZpl("UPS", "UPS Ground");
    expect(zpl).toContain(`^FD${longCompany.slice(0, 35)}^FS`);
    expect(zpl).toContain(`^FDATTN: ${longName.slice(0, 35)}^FS`);
    expect(zpl).not.toContain(longName);
    expect(zpl).not.toContain(longCompany);
  });

  it("prints name and company as two separate lines for other carriers", async () => {
    const zpl = await buyZpl("FEDEX", "FedEx Ground");
    expect(zpl).toContain(`^FD${longName}^FS`);
    expect(zpl).toContain(`^FD${longCompany}^FS`);
    expect(zpl).not.toContain("ATTN:");
  });

  it("serves a ZPL II document with one ^XA..^XZ per box showing carrier, service, addresses, barcode and box n of N", async () => {
    const draft = await createLabel(
      domesticDraft({
        carrier: "UPS",
        service: "UPS Ground",
        parcel: undefined,
        parcels: [PARCEL, PARCEL],
        label_format: "zpl",
        label_size: "4x8",
      }),
    );
    const bought = await purchase(draft.body.id);
    const res = await fetch(String(bought.body.label_url));
    const zpl = await res.text();
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.match(/\^XZ/g)).toHaveLength(2);
    expect(zpl).toContain("^LL1624");
    expect(zpl).toContain("BOX 2 OF 2");
    expect(zpl).toContain("UPS Ground");
    expect(zpl).toContain("SHIP FROM:");
    expect(zpl).toContain("Grace Buyer");
    const tracking = bought.body.tracking_numbers as string[];
    expect(zpl).toContain(`^BCN,180,Y,N,N^FD${tracking[1] ?? "missing"}^FS`);
  });

  it("serves a PDF with one 4x6 page per box", async () => {
    const draft = await createLabel(
      domesticDraft({ carrier: "UPS", service: "UPS Ground", parcel: undefined, parcels: [PARCEL, PARCEL, PARCEL] }),
    );
    const bought = await purchase(draft.body.id);
    const res = await fetch(String(bought.body.label_url));
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const pdf = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    expect(pdf.getPageCount()).toBe(3);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
  });

  it("serves a PNG barcode image", async () => {
    const draft = await createLabel(domesticDraft({ label_format: "png" }));
    const bought = await purchase(draft.body.id);
    expect(String(bought.body.label_url)).toMatch(/\.png$/);
    const bytes = new Uint8Array(await (await fetch(String(bought.body.label_url))).arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it("serves no file for a draft", async () => {
    const draft = await createLabel(domesticDraft());
    const res = await fetch(`${server.url()}/files/${String(draft.body.id)}.pdf`);
    expect(res.status).toBe(404);
  });
});
