import { CAD, type Destination, GBP, type OrderSpec, USD } from "./seed";

// What `createOrder` places: paid, unfulfilled orders a customer could have just checked out,
// one kind per label path the app takes. Each kind has a few customers, picked by order number,
// so the same number always gives the same order (tests and screenshots stay stable) while a
// demo that places several in a row shows different names and places.
//
// - domestic: a US address (real city/state/ZIP triples, which the shipping emulator checks) and
//   products with weights.
// - international: Canada or the United Kingdom, with a phone, only products with an HS code, a
//   country of origin and a weight: customs-ready.
// - problem: the seed's #1014 scenario again (a tote without weight or HS code, soap without SKU
//   or HS code, to the UK), which the app's preflight blocks until the merchant fills them in.

export const NEW_ORDER_KINDS = ["domestic", "international", "problem"] as const;
export type NewOrderKind = (typeof NEW_ORDER_KINDS)[number];

interface Customer {
  email: string;
  destination: Destination;
}

const DOMESTIC: readonly Customer[] = [
  {
    email: "hannah.brooks@fastmail.com",
    destination: {
      firstName: "Hannah",
      lastName: "Brooks",
      address1: "2315 NW Irving St",
      city: "Portland",
      province: "Oregon",
      provinceCode: "OR",
      zip: "97210",
      country: "United States",
      countryCode: "US",
      phone: "+15032218847",
    },
  },
  {
    email: "jorge.alvarez@gmail.com",
    destination: {
      firstName: "Jorge",
      lastName: "Alvarez",
      address1: "3401 Blake St",
      address2: "Unit 12",
      city: "Denver",
      province: "Colorado",
      provinceCode: "CO",
      zip: "80205",
      country: "United States",
      countryCode: "US",
      phone: "+13033926610",
    },
  },
  {
    email: "claire.osei@icloud.com",
    destination: {
      firstName: "Claire",
      lastName: "Osei",
      company: "Willy Street Design",
      address1: "1221 Williamson St",
      city: "Madison",
      province: "Wisconsin",
      provinceCode: "WI",
      zip: "53703",
      country: "United States",
      countryCode: "US",
      phone: "+16082554173",
    },
  },
];

const INTERNATIONAL: readonly (Customer & { presentment: OrderSpec["presentment"] })[] = [
  {
    email: "mathieu.roy@videotron.ca",
    presentment: CAD,
    destination: {
      firstName: "Mathieu",
      lastName: "Roy",
      address1: "325 Front St W",
      address2: "Suite 1802",
      city: "Toronto",
      province: "Ontario",
      provinceCode: "ON",
      zip: "M5V 2Y1",
      country: "Canada",
      countryCode: "CA",
      phone: "+14165978823",
    },
  },
  {
    email: "isla.fraser@btinternet.com",
    presentment: GBP,
    destination: {
      firstName: "Isla",
      lastName: "Fraser",
      address1: "118 Upper Street",
      city: "London",
      province: "England",
      zip: "N1 1QP",
      country: "United Kingdom",
      countryCode: "GB",
      phone: "+442073548826",
    },
  },
];

const PROBLEM: readonly Customer[] = [
  {
    email: "george.whitfield@outlook.com",
    destination: {
      firstName: "George",
      lastName: "Whitfield",
      address1: "9 Clifton Terrace",
      city: "Brighton",
      province: "England",
      zip: "BN1 3HA",
      country: "United Kingdom",
      countryCode: "GB",
      phone: "+441273329471",
    },
  },
];

function pick<T>(items: readonly T[], number: number): T {
  const item = items[number % items.length];
  if (item === undefined) throw new Error("new orders: empty customer list");
  return item;
}

// What each kind of order holds; only the customer varies from one order number to the next.
const KINDS: Record<
  NewOrderKind,
  {
    customers: readonly (Customer & { presentment?: OrderSpec["presentment"] })[];
    presentment: OrderSpec["presentment"];
    shipping: OrderSpec["shipping"];
    items: OrderSpec["items"];
  }
> = {
  domestic: {
    customers: DOMESTIC,
    presentment: USD,
    shipping: { title: "Standard Shipping", code: "STANDARD", amountUsd: "8.95" },
    items: [
      { key: "mug", quantity: 2 },
      { key: "dripper", quantity: 1 },
    ],
  },
  // Each international customer pays in their own currency.
  international: {
    customers: INTERNATIONAL,
    presentment: USD,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "26.00" },
    items: [
      { key: "sweater", quantity: 1 },
      { key: "journal", quantity: 1 },
    ],
  },
  problem: {
    customers: PROBLEM,
    presentment: GBP,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "27.00" },
    items: [
      { key: "tote", quantity: 2 },
      { key: "soap", quantity: 3 },
    ],
  },
};

/** The spec of order number `number` of this kind, placed at `createdAt`. */
export function buildNewOrderSpec(kind: NewOrderKind, number: number, createdAt: string): OrderSpec {
  const { customers, presentment, shipping, items } = KINDS[kind];
  const customer = pick(customers, number);
  return {
    number,
    createdAt,
    email: customer.email,
    phone: customer.destination.phone,
    destination: customer.destination,
    presentment: customer.presentment ?? presentment,
    shipping: { ...shipping },
    items: items.map((item) => ({ ...item })),
  };
}
