import type { FulfillmentRecord, OrderRecord } from "./model";
import {
  AUD,
  buildOrder,
  CAD,
  type Destination,
  EUR,
  GBP,
  isoDaysAgo,
  LAST_ORDER_NUMBER,
  type OrderSpec,
  type SeedContext,
  USD,
} from "./seed";

// Generated orders: the store's history before the scenario orders, so lists look like a
// store's (hundreds of orders, most old ones fulfilled, a backlog of recent unfulfilled ones).
//
// - Deterministic: a seeded PRNG (mulberry32), so the same count gives the same store.
// - Older than every scenario order (#1001 is ~16 days old): they are dated 17–58 days ago,
//   inside the 60 days an app without read_all_orders sees, and their numbers grow with time.
//   Up to 1,000 of them are numbered just below #1001 (#701–#1000 for 300), the way a store
//   whose first order was #701 would look; a bench-sized store (more than 1,000) numbers them
//   after #1022 instead, since order numbers must stay positive and unique.
// - Realistic and valid: US addresses are real city/state/ZIP triples (the shipping emulator
//   checks ZIPs), international ones carry phones, and international orders only contain
//   products with an HS code and a weight, so their labels can be bought.
// - Fast: 10,000 orders build in well under a second (plain objects, no per-order lookups).

export const DEFAULT_GENERATED_ORDER_COUNT = 300;
const OLDEST_DAYS_AGO = 58;
const NEWEST_DAYS_AGO = 17;

/** mulberry32: a tiny, well-distributed 32-bit PRNG; the same seed gives the same sequence. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("generated orders: empty list");
  return item;
};

const FIRST_NAMES = [
  "Olivia", "Liam", "Emma", "Noah", "Ava", "Ethan", "Mia", "Lucas", "Harper", "Mason", "Amelia",
  "Logan", "Chloe", "James", "Grace", "Daniel", "Nora", "Henry", "Zoe", "Samuel", "Priya", "Diego",
  "Aisha", "Mateo", "Hana", "Omar", "Leah", "Kenji", "Sofia", "Elijah", "Camila", "Isaac",
] as const; // prettier-ignore
const LAST_NAMES = [
  "Nguyen", "Garcia", "Johnson", "Patel", "Kim", "Rossi", "Müller", "Okafor", "Smith", "Lopez",
  "Brown", "Cohen", "Williams", "Martin", "Anderson", "Sato", "Hughes", "Rivera", "Fischer",
  "Walker", "Chen", "O'Brien", "Dubois", "Kowalski", "Haddad", "Murphy", "Silva", "Reyes",
] as const; // prettier-ignore
const STREETS = [
  "Oak St", "Maple Ave", "Cedar Ln", "Park Pl", "Washington St", "Lake Dr", "Hillcrest Rd",
  "Elm St", "Sunset Blvd", "Main St", "Pine St", "River Rd", "Highland Ave", "Church St",
] as const; // prettier-ignore

// [city, state name, state code, ZIP, area code]: real combinations the ZIP data set agrees with.
const US_PLACES: readonly (readonly [string, string, string, string, string])[] = [
  ["Portland", "Oregon", "OR", "97205", "503"],
  ["Seattle", "Washington", "WA", "98103", "206"],
  ["San Francisco", "California", "CA", "94110", "415"],
  ["Los Angeles", "California", "CA", "90026", "323"],
  ["San Diego", "California", "CA", "92103", "619"],
  ["Denver", "Colorado", "CO", "80205", "303"],
  ["Austin", "Texas", "TX", "78704", "512"],
  ["Houston", "Texas", "TX", "77006", "713"],
  ["Chicago", "Illinois", "IL", "60614", "312"],
  ["Minneapolis", "Minnesota", "MN", "55408", "612"],
  ["Madison", "Wisconsin", "WI", "53703", "608"],
  ["Nashville", "Tennessee", "TN", "37206", "615"],
  ["Atlanta", "Georgia", "GA", "30307", "404"],
  ["Miami", "Florida", "FL", "33137", "305"],
  ["Raleigh", "North Carolina", "NC", "27605", "919"],
  ["Richmond", "Virginia", "VA", "23220", "804"],
  ["Philadelphia", "Pennsylvania", "PA", "19147", "215"],
  ["Boston", "Massachusetts", "MA", "02116", "617"],
  ["Providence", "Rhode Island", "RI", "02906", "401"],
  ["Burlington", "Vermont", "VT", "05401", "802"],
  ["New York", "New York", "NY", "10014", "212"],
  ["Brooklyn", "New York", "NY", "11215", "718"],
  ["Pittsburgh", "Pennsylvania", "PA", "15213", "412"],
  ["Columbus", "Ohio", "OH", "43215", "614"],
  ["Ann Arbor", "Michigan", "MI", "48104", "734"],
  ["Salt Lake City", "Utah", "UT", "84102", "801"],
  ["Phoenix", "Arizona", "AZ", "85004", "602"],
  ["Santa Fe", "New Mexico", "NM", "87501", "505"],
  ["Boise", "Idaho", "ID", "83702", "208"],
  ["Kansas City", "Missouri", "MO", "64111", "816"],
];

interface Abroad {
  country: string;
  countryCode: string;
  presentment: { currency: string; rate: number };
  places: readonly { city: string; zip: string; province?: string; provinceCode?: string; street: string }[];
  phone: (random: Random) => string;
}

// n digits, the first one 2–9 (no trunk prefix, never a run of zeros).
const digits = (random: Random, n: number) =>
  String(2 + Math.floor(random() * 8)) + Array.from({ length: n - 1 }, () => Math.floor(random() * 10)).join("");

const ABROAD: readonly Abroad[] = [
  {
    country: "Canada",
    countryCode: "CA",
    presentment: CAD,
    places: [
      { city: "Toronto", province: "Ontario", provinceCode: "ON", zip: "M5V 2T6", street: "King St W" },
      { city: "Vancouver", province: "British Columbia", provinceCode: "BC", zip: "V6B 1A1", street: "Granville St" },
      { city: "Calgary", province: "Alberta", provinceCode: "AB", zip: "T2P 1J9", street: "8 Ave SW" },
    ],
    phone: (r) => `+1${pick(r, ["416", "604", "403"])}${digits(r, 7)}`,
  },
  {
    country: "United Kingdom",
    countryCode: "GB",
    presentment: GBP,
    places: [
      { city: "London", zip: "N1 9GU", street: "Upper Street" },
      { city: "Manchester", zip: "M4 1HN", street: "Oldham Street" },
    ],
    phone: (r) => `+447700900${String(Math.floor(r() * 1000)).padStart(3, "0")}`,
  },
  {
    country: "Germany",
    countryCode: "DE",
    presentment: EUR,
    places: [
      { city: "Berlin", zip: "10435", street: "Kastanienallee" },
      { city: "Hamburg", zip: "20359", street: "Schanzenstraße" },
    ],
    phone: (r) => `+4930${digits(r, 8)}`,
  },
  {
    country: "Netherlands",
    countryCode: "NL",
    presentment: EUR,
    places: [{ city: "Amsterdam", zip: "1015 CJ", street: "Prinsengracht" }],
    phone: (r) => `+3120${digits(r, 7)}`,
  },
  {
    country: "Australia",
    countryCode: "AU",
    presentment: AUD,
    places: [
      { city: "Sydney", province: "New South Wales", provinceCode: "NSW", zip: "2010", street: "Crown St" },
      { city: "Melbourne", province: "Victoria", provinceCode: "VIC", zip: "3065", street: "Brunswick St" },
    ],
    phone: (r) => `+614${digits(r, 8)}`,
  },
];

// Catalog keys with an HS code, an origin and a weight: international orders use only these.
const CUSTOMS_READY = ["mug", "sweater", "skillet", "journal", "dripper", "duvet"] as const;
const DOMESTIC = [...CUSTOMS_READY, "mug", "dripper", "journal", "soap", "tote", "kettlebell"] as const;
const DOMESTIC_SHIPPING = [
  { title: "Standard Shipping", code: "STANDARD", amountUsd: "8.95" },
  { title: "Standard Shipping", code: "STANDARD", amountUsd: "8.95" },
  { title: "Free Shipping", code: "FREE", amountUsd: "0.00" },
  { title: "Expedited", code: "EXPEDITED", amountUsd: "19.50" },
] as const;
const INTERNATIONAL_SHIPPING = { title: "International Standard", code: "INTL_STANDARD", amountUsd: "26.00" };

function generateSpec(random: Random, number: number, createdDaysAgo: number): OrderSpec {
  const firstName = pick(random, FIRST_NAMES);
  const lastName = pick(random, LAST_NAMES);
  const email = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, "") + `${number}@example.com`;
  const international = random() < 0.15;
  const houseNumber = String(10 + Math.floor(random() * 1980));
  const itemCount = random() < 0.6 ? 1 : random() < 0.75 ? 2 : 3;
  const catalog = international ? CUSTOMS_READY : DOMESTIC;
  const keys = new Set<string>();
  while (keys.size < itemCount) keys.add(pick(random, catalog));
  const items = [...keys].map((key) => ({ key, quantity: random() < 0.8 ? 1 : 2 }));

  if (international) {
    const abroad = pick(random, ABROAD);
    const place = pick(random, abroad.places);
    const phone = abroad.phone(random);
    const destination: Destination = {
      firstName,
      lastName,
      address1: `${houseNumber} ${place.street}`,
      city: place.city,
      ...(place.province ? { province: place.province } : {}),
      ...(place.provinceCode ? { provinceCode: place.provinceCode } : {}),
      zip: place.zip,
      country: abroad.country,
      countryCode: abroad.countryCode,
      phone,
    };
    return {
      number,
      email,
      phone,
      destination,
      presentment: abroad.presentment,
      items,
      shipping: INTERNATIONAL_SHIPPING,
      createdDaysAgo,
    };
  }
  const [city, province, provinceCode, zip, areaCode] = pick(random, US_PLACES);
  // Most US customers leave a phone; some don't (domestic labels don't need one).
  const phone = random() < 0.7 ? `+1${areaCode}${digits(random, 7)}` : null;
  const company = random() < 0.08 ? `${lastName} & Co.` : undefined;
  const destination: Destination = {
    firstName,
    lastName,
    ...(company ? { company } : {}),
    address1: `${houseNumber} ${pick(random, STREETS)}`,
    ...(random() < 0.2 ? { address2: `Apt ${1 + Math.floor(random() * 30)}` } : {}),
    city,
    province,
    provinceCode,
    zip,
    country: "United States",
    countryCode: "US",
    phone,
  };
  return {
    number,
    email,
    phone,
    destination,
    presentment: USD,
    items,
    shipping: pick(random, DOMESTIC_SHIPPING),
    createdDaysAgo,
  };
}

const CARRIERS = [
  { company: "UPS", prefix: "1Z999AA1", url: "https://www.ups.com/track?tracknum=" },
  { company: "USPS", prefix: "94001118992230", url: "https://tools.usps.com/go/TrackConfirmAction?tLabels=" },
] as const;

// Old orders are mostly shipped already: the fulfillment orders close with a fulfillment and
// tracking, the way they would after a label was bought (by this app or another).
function markFulfilled(order: OrderRecord, number: number, createdDaysAgo: number, random: Random): void {
  const carrier = pick(random, CARRIERS);
  const trackingNumber = `${carrier.prefix}${String(number).padStart(8, "0")}`;
  const at = isoDaysAgo(Math.max(createdDaysAgo - 1 - random() * 2, 0.5));
  const fulfillments: FulfillmentRecord[] = order.fulfillmentOrders.map((fo, f) => {
    fo.status = "CLOSED";
    fo.updatedAt = at;
    for (const line of fo.lineItems) line.remainingQuantity = 0;
    return {
      __typename: "Fulfillment",
      id: `gid://shopify/Fulfillment/${5310000000 + number * 10 + f}`,
      name: `${order.name}-F${f + 1}`,
      orderId: order.id,
      status: "SUCCESS",
      createdAt: at,
      updatedAt: at,
      fulfillmentOrderIds: [fo.id],
      trackingInfo: [{ company: carrier.company, number: trackingNumber, url: `${carrier.url}${trackingNumber}` }],
      notifyCustomer: true,
      createdThroughApi: false,
      lineItems: fo.lineItems.map((line, k) => ({
        id: `gid://shopify/FulfillmentLineItem/${5320000000 + number * 10 + k}`,
        fulfillmentOrderLineItemId: line.id,
        lineItem: line.lineItem,
        quantity: line.totalQuantity,
      })),
    };
  });
  order.fulfillments = fulfillments;
  order.updatedAt = at;
}

/** The number the first (oldest) generated order gets; see the header comment. */
export function firstGeneratedOrderNumber(count: number): number {
  return count <= 1000 ? 1001 - count : LAST_ORDER_NUMBER + 1;
}

export function generateOrders(count: number, context: SeedContext & { seed?: number }): OrderRecord[] {
  if (!Number.isInteger(count) || count < 0) throw new Error(`generated orders: count must be ≥ 0, got ${count}`);
  const random = createRandom(context.seed ?? 20261122);
  const base = firstGeneratedOrderNumber(count);
  const span = OLDEST_DAYS_AGO - NEWEST_DAYS_AGO;
  const orders: OrderRecord[] = [];
  for (let k = 0; k < count; k++) {
    const number = base + k;
    // Evenly spread from oldest to newest with a little jitter that keeps the order of numbers.
    const createdDaysAgo = OLDEST_DAYS_AGO - ((k + random() * 0.9) / Math.max(count, 1)) * span;
    const spec = generateSpec(random, number, createdDaysAgo);
    const order = buildOrder(spec, context.firstIndex + k, context.variants, context.locations);
    // The older the order, the likelier it has shipped: a realistic backlog of recent ones.
    const shippedOdds = createdDaysAgo > 35 ? 0.93 : createdDaysAgo > 24 ? 0.7 : 0.35;
    if (random() < shippedOdds) markFulfilled(order, number, createdDaysAgo, random);
    if (random() < 0.03) order.displayFinancialStatus = "PENDING";
    order.tags = random() < 0.1 ? ["wholesale"] : random() < 0.1 ? ["gift"] : [];
    orders.push(order);
  }
  return orders;
}
