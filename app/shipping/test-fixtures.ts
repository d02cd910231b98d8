import type { Address, CreateLabelRequest, Parcel } from "./schemas";

// Addresses and a box that every shipping test starts from: a valid domestic sender, a domestic
// and an international recipient. Tests change one field at a time from these.

export const sender: Address = {
  name: "Ada Shipper",
  street1: "1 Congress Ave",
  city: "Austin",
  state: "TX",
  zip: "78701",
  country: "US",
  phone: "+1 512 555 0134",
};

export const usRecipient: Address = {
  name: "Bob Buyer",
  street1: "2 Oak Ave",
  city: "Denver",
  state: "CO",
  zip: "80202",
  country: "US",
};

export const deRecipient: Address = {
  name: "Clara Kunde",
  street1: "Unter den Linden 5",
  city: "Berlin",
  zip: "10117",
  country: "DE",
  phone: "+49 30 901820",
};

export const box: Parcel = { weight: 16, length: 10, width: 8, height: 4 };

/** A valid domestic label: UPS Ground by service code, no rate. */
export const upsGroundDomestic: CreateLabelRequest = {
  from_address: sender,
  to_address: usRecipient,
  parcel: box,
  carrier: "UPS",
  service_code: "svc_ups_ground",
};

/** A valid international label: DHL to Germany with a specific customs description. */
export const dhlToGermany: CreateLabelRequest = {
  from_address: sender,
  to_address: deRecipient,
  parcel: box,
  carrier: "DHL",
  service_code: "svc_dhl_express_worldwide",
  customs: { description: "Cotton T-shirts", value: 40 },
};
