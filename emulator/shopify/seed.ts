import type {
  DeliveryMethodType,
  FulfillmentOrderRecord,
  FulfillmentOrderStatus,
  FulfillmentRecord,
  LineItemRecord,
  LocalizedFieldRecord,
  LocationRecord,
  MailingAddressRecord,
  MoneyBag,
  OrderRecord,
  ProductVariantRecord,
  ShopifyEmulatorState,
  WeightRecord,
} from "./model";

// A store a merchant could plausibly run: a Brooklyn homewares shop with a second warehouse in
// Reno. Each order exists to exercise one label scenario (see ORDER_SCENARIOS). Seed values
// (phones, CPF, codice fiscale) are realistic and carry valid check digits, because the
// shipping service rejects placeholders.

export const DEFAULT_SHOP_DOMAIN = "demo-shop.myshopify.com";

export const ORDER_SCENARIOS = {
  "#1001": "domestic residential",
  "#1002": "domestic commercial (company)",
  "#1003": "Canada",
  "#1004": "Germany",
  "#1005": "United Kingdom",
  "#1006": "Brazil with CPF (localized field)",
  "#1007": "Brazil without CPF",
  "#1008": "Italy with codice fiscale (localized field)",
  "#1009": "Italy without codice fiscale",
  "#1010": "Australia",
  "#1011": "over 2,500 USD, to Germany",
  "#1012": "heavy: 77.5 lb, several boxes",
  "#1013": "customer without phone, to Canada",
  "#1014": "products without HS code or weight, to the UK",
  "#1015": "vague product type (Gift), to Canada",
  "#1016": "split: two fulfillment orders at two locations",
  "#1017": "partly fulfilled: one closed FO, one in progress with an existing fulfillment",
  "#1018": "local pickup: the customer collects it at the Brooklyn warehouse (no label)",
  "#1019": "local delivery: the merchant delivers it in Brooklyn (no label)",
  "#1020": "duties collected at checkout (DDP), to the United Kingdom",
  "#1021": "20% order discount, to Canada: customs value is the price paid",
  "#1022":
    "address changed after a move: the FO's destination differs from the order's shipping address; the moved-from FO is closed and hidden",
} as const;

const gid = (type: string, n: number | string) => `gid://shopify/${type}/${n}`;

interface CatalogEntry {
  key: string;
  title: string;
  productType: string;
  vendor: string;
  // Product tags, which shop rules match (adult signature, lithium batteries).
  tags?: string[];
  sku: string | null;
  priceUsd: string;
  weight: WeightRecord | null;
  hsCode: string | null;
  origin: string | null;
}

const CATALOG: CatalogEntry[] = [
  {
    key: "mug",
    title: "Hand-thrown Stoneware Mug",
    productType: "Mugs",
    vendor: "Harbor & Pine",
    sku: "HP-MUG-SLATE",
    priceUsd: "28.00",
    weight: { value: 450, unit: "GRAMS" },
    hsCode: "6912.00",
    origin: "US",
  },
  {
    key: "sweater",
    title: "Merino Wool Crew Sweater",
    productType: "Sweaters",
    vendor: "Andes Knitworks",
    sku: "AK-MERINO-CREW-M",
    priceUsd: "128.00",
    weight: { value: 0.9, unit: "POUNDS" },
    hsCode: "6110.11",
    origin: "PE",
  },
  {
    key: "skillet",
    title: "Cast Iron Skillet 12 in",
    productType: "Cookware",
    vendor: "Foundry Row",
    sku: "FR-SKILLET-12",
    priceUsd: "89.00",
    weight: { value: 7.5, unit: "POUNDS" },
    hsCode: "7321.11",
    origin: "US",
  },
  {
    key: "journal",
    title: "Leather Field Journal",
    productType: "Notebooks",
    vendor: "Legatoria Fiorentina",
    sku: "LF-JOURNAL-A5",
    priceUsd: "42.00",
    weight: { value: 12, unit: "OUNCES" },
    hsCode: "4820.10",
    origin: "IT",
  },
  {
    key: "grinder",
    title: "Espresso Grinder Pro 64",
    productType: "Coffee Grinders",
    // Its cordless scale runs on a lithium-ion cell.
    tags: ["electric", "lithium-battery"],
    vendor: "Mahlwerk",
    sku: "MW-GRINDER-64",
    priceUsd: "1450.00",
    weight: { value: 5.2, unit: "KILOGRAMS" },
    hsCode: "8509.40",
    origin: "DE",
  },
  {
    key: "dripper",
    title: "Ceramic Pour-Over Dripper",
    productType: "Coffee Brewers",
    vendor: "Arita Kiln",
    sku: "AK-DRIPPER-02",
    priceUsd: "36.00",
    weight: { value: 380, unit: "GRAMS" },
    hsCode: "6912.00",
    origin: "JP",
  },
  {
    key: "tote",
    title: "Organic Cotton Market Tote",
    productType: "Bags",
    vendor: "Harbor & Pine",
    sku: "HP-TOTE-NAT",
    priceUsd: "18.00",
    weight: null,
    hsCode: null,
    origin: null,
  },
  {
    key: "soap",
    title: "Olive Oil Castile Soap Bar",
    productType: "Soap",
    vendor: "Harbor & Pine",
    sku: null,
    priceUsd: "9.50",
    weight: { value: 4.5, unit: "OUNCES" },
    hsCode: null,
    origin: "US",
  },
  {
    key: "bundle",
    title: "Weekend Host Bundle",
    productType: "Gift",
    vendor: "Harbor & Pine",
    sku: "HP-BUNDLE-HOST",
    priceUsd: "95.00",
    weight: { value: 1.2, unit: "KILOGRAMS" },
    hsCode: null,
    origin: "US",
  },
  {
    key: "kettlebell",
    title: "Cast Iron Kettlebell 35 lb",
    productType: "Fitness Equipment",
    vendor: "Ironbound",
    sku: "IB-KB-35",
    priceUsd: "79.00",
    weight: { value: 35, unit: "POUNDS" },
    hsCode: "9506.91",
    origin: "CN",
  },
  {
    key: "duvet",
    title: "Stonewashed Linen Duvet Cover, Queen",
    productType: "Bedding",
    vendor: "Casa Linho",
    sku: "CL-DUVET-Q-OAT",
    priceUsd: "185.00",
    weight: { value: 2.1, unit: "POUNDS" },
    hsCode: "6302.31",
    origin: "PT",
  },
];

export function buildVariants(): Map<string, ProductVariantRecord> {
  const variants = new Map<string, ProductVariantRecord>();
  CATALOG.forEach((entry, i) => {
    const n = i + 1;
    const product = {
      __typename: "Product" as const,
      id: gid("Product", 8841000000 + n),
      title: entry.title,
      productType: entry.productType,
      vendor: entry.vendor,
      tags: entry.tags ?? [],
    };
    variants.set(entry.key, {
      __typename: "ProductVariant",
      id: gid("ProductVariant", 45120000000 + n),
      title: "Default Title",
      displayName: `${entry.title} - Default Title`,
      sku: entry.sku,
      price: entry.priceUsd,
      product,
      inventoryItem: {
        __typename: "InventoryItem",
        id: gid("InventoryItem", 47310000000 + n),
        sku: entry.sku,
        harmonizedSystemCode: entry.hsCode,
        countryCodeOfOrigin: entry.origin,
        provinceCodeOfOrigin: null,
        measurement: {
          __typename: "InventoryItemMeasurement",
          id: gid("InventoryItemMeasurement", 47310000000 + n),
          weight: entry.weight,
        },
        countryHarmonizedSystemCodes: [],
        requiresShipping: true,
        tracked: true,
      },
    });
  });
  return variants;
}

export function buildLocations(): { brooklyn: LocationRecord; reno: LocationRecord } {
  return {
    brooklyn: {
      __typename: "Location",
      id: gid("Location", 71234560001),
      name: "Brooklyn Warehouse",
      isActive: true,
      fulfillsOnlineOrders: true,
      shipsInventory: true,
      address: {
        __typename: "LocationAddress",
        address1: "250 Kent Ave",
        address2: "Unit 4B",
        city: "Brooklyn",
        province: "New York",
        provinceCode: "NY",
        zip: "11249",
        country: "United States",
        countryCode: "US",
        phone: "+17183872941",
        formatted: ["250 Kent Ave", "Unit 4B", "Brooklyn NY 11249", "United States"],
      },
    },
    // No phone on purpose: international labels from here need a fallback (the shop's phone).
    reno: {
      __typename: "Location",
      id: gid("Location", 71234560002),
      name: "Reno Fulfillment Center",
      isActive: true,
      fulfillsOnlineOrders: true,
      shipsInventory: true,
      address: {
        __typename: "LocationAddress",
        address1: "4855 Longley Ln",
        address2: null,
        city: "Reno",
        province: "Nevada",
        provinceCode: "NV",
        zip: "89502",
        country: "United States",
        countryCode: "US",
        phone: null,
        formatted: ["4855 Longley Ln", "Reno NV 89502", "United States"],
      },
    },
  };
}

export interface Destination {
  firstName: string;
  lastName: string;
  company?: string;
  address1: string;
  address2?: string;
  city: string;
  province?: string;
  provinceCode?: string;
  zip: string;
  country: string;
  countryCode: string;
  phone: string | null;
}

export interface OrderSpec {
  number: number;
  email: string | null;
  phone: string | null;
  destination: Destination;
  presentment: { currency: string; rate: number };
  items: { key: string; quantity: number }[];
  shipping: { title: string; code: string; amountUsd: string };
  localizedFields?: Omit<LocalizedFieldRecord, "__typename">[];
  // Which line items (by index in `items`) go to which location; default: all at Brooklyn.
  split?: {
    location: "brooklyn" | "reno";
    itemIndexes: number[];
    status?: FulfillmentOrderStatus;
    remaining?: number[];
  }[];
  // The fulfillment orders' delivery method; default SHIPPING. Pickup orders have no ship-to.
  deliveryMethod?: DeliveryMethodType;
  // The fulfillment orders' incoterm for international orders; default DAP (duties unpaid).
  incoterm?: "DAP" | "DDP";
  // An order-level discount, as a fraction of every line's price (0.2 = 20% off).
  discount?: number;
  // Where the fulfillment orders ship, when it differs from the order's shipping address.
  fulfillmentDestination?: Destination;
  // A closed fulfillment order the items were moved from, hidden from the merchant.
  movedFrom?: "brooklyn" | "reno";
  // How long ago the order was placed; default: from its number (scenario orders, 18 h apart).
  createdDaysAgo?: number;
  // When the order was placed, for orders created while the emulator runs (wins over createdDaysAgo).
  createdAt?: string;
  existingFulfillments?: {
    foIndex: number;
    itemIndex: number;
    quantity: number;
    company: string;
    number: string;
    url: string;
    daysAgo: number;
  }[];
}

export const USD = { currency: "USD", rate: 1 };
export const CAD = { currency: "CAD", rate: 1.38 };
export const EUR = { currency: "EUR", rate: 0.92 };
export const GBP = { currency: "GBP", rate: 0.79 };
export const BRL = { currency: "BRL", rate: 5.42 };
export const AUD = { currency: "AUD", rate: 1.53 };

const ORDER_SPECS: OrderSpec[] = [
  {
    number: 1001,
    email: "emily.carter@fastmail.com",
    phone: "+18473281904",
    presentment: USD,
    shipping: { title: "Standard Shipping", code: "STANDARD", amountUsd: "8.95" },
    destination: {
      firstName: "Emily",
      lastName: "Carter",
      address1: "1427 Maple Ave",
      city: "Evanston",
      province: "Illinois",
      provinceCode: "IL",
      zip: "60201",
      country: "United States",
      countryCode: "US",
      phone: "+18473281904",
    },
    items: [
      { key: "mug", quantity: 2 },
      { key: "journal", quantity: 1 },
    ],
  },
  {
    number: 1002,
    email: "marcus@northwind-studio.com",
    phone: null,
    presentment: USD,
    // Named after a carrier service, as many checkouts are: the order page marks that rate.
    shipping: { title: "USPS Priority Mail", code: "PRIORITY", amountUsd: "19.50" },
    destination: {
      firstName: "Marcus",
      lastName: "Bell",
      company: "Northwind Design Studio",
      address1: "600 Congress Ave",
      address2: "Suite 1400",
      city: "Austin",
      province: "Texas",
      provinceCode: "TX",
      zip: "78701",
      country: "United States",
      countryCode: "US",
      phone: "+15124739082",
    },
    items: [
      { key: "sweater", quantity: 1 },
      { key: "dripper", quantity: 3 },
    ],
  },
  {
    number: 1003,
    email: "sophie.tremblay@videotron.ca",
    phone: "+15148427731",
    presentment: CAD,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "24.00" },
    destination: {
      firstName: "Sophie",
      lastName: "Tremblay",
      address1: "1250 Rue Sainte-Catherine O",
      address2: "Apt 402",
      city: "Montréal",
      province: "Quebec",
      provinceCode: "QC",
      zip: "H3G 1P1",
      country: "Canada",
      countryCode: "CA",
      phone: "+15148427731",
    },
    items: [
      { key: "sweater", quantity: 1 },
      { key: "mug", quantity: 1 },
    ],
  },
  {
    number: 1004,
    email: "lukas.schneider@posteo.de",
    phone: "+493028094517",
    presentment: EUR,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "29.00" },
    destination: {
      firstName: "Lukas",
      lastName: "Schneider",
      address1: "Torstraße 112",
      city: "Berlin",
      zip: "10119",
      country: "Germany",
      countryCode: "DE",
      phone: "+493028094517",
    },
    items: [
      { key: "journal", quantity: 1 },
      { key: "dripper", quantity: 1 },
    ],
  },
  {
    number: 1005,
    email: "oliver.hughes@btinternet.com",
    phone: "+441614452378",
    presentment: GBP,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "27.00" },
    destination: {
      firstName: "Oliver",
      lastName: "Hughes",
      address1: "27 Ashbourne Road",
      city: "Manchester",
      province: "England",
      zip: "M20 3PQ",
      country: "United Kingdom",
      countryCode: "GB",
      phone: "+441614452378",
    },
    items: [{ key: "skillet", quantity: 1 }],
  },
  {
    number: 1006,
    email: "anabeatriz.souza@uol.com.br",
    phone: "+5511973142268",
    presentment: BRL,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "38.00" },
    destination: {
      firstName: "Ana Beatriz",
      lastName: "Souza",
      address1: "Rua Oscar Freire, 1020",
      address2: "Apto 52, Jardim Paulista",
      city: "São Paulo",
      province: "São Paulo",
      provinceCode: "SP",
      zip: "01426-001",
      country: "Brazil",
      countryCode: "BR",
      phone: "+5511973142268",
    },
    items: [{ key: "dripper", quantity: 2 }],
    // Brazil's checkout collects CPF/CNPJ as a shipping credential. 381.447.926-29 has valid check digits.
    localizedFields: [
      {
        key: "SHIPPING_CREDENTIAL_BR",
        purpose: "SHIPPING",
        countryCode: "BR",
        title: "CPF/CNPJ",
        value: "381.447.926-29",
      },
    ],
  },
  {
    number: 1007,
    email: "rafael.oliveira@gmail.com",
    phone: "+5521996413087",
    presentment: BRL,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "38.00" },
    destination: {
      firstName: "Rafael",
      lastName: "Oliveira",
      address1: "Av. Atlântica, 1702",
      address2: "Apto 801, Copacabana",
      city: "Rio de Janeiro",
      province: "Rio de Janeiro",
      provinceCode: "RJ",
      zip: "22021-001",
      country: "Brazil",
      countryCode: "BR",
      phone: "+5521996413087",
    },
    items: [{ key: "journal", quantity: 2 }],
  },
  {
    number: 1008,
    email: "giulia.rossi@libero.it",
    phone: "+390286453172",
    presentment: EUR,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "29.00" },
    destination: {
      firstName: "Giulia",
      lastName: "Rossi",
      address1: "Via Giuseppe Mazzini, 14",
      city: "Milano",
      province: "Milano",
      provinceCode: "MI",
      zip: "20123",
      country: "Italy",
      countryCode: "IT",
      phone: "+390286453172",
    },
    items: [
      { key: "sweater", quantity: 1 },
      { key: "mug", quantity: 2 },
    ],
    // Codice fiscale with a valid check character (RSS GLI 90A41 F205 → B).
    localizedFields: [
      {
        key: "TAX_CREDENTIAL_IT",
        purpose: "TAX",
        countryCode: "IT",
        title: "Codice fiscale o partita IVA",
        value: "RSSGLI90A41F205B",
      },
    ],
  },
  {
    number: 1009,
    email: "marco.bianchi@tiscali.it",
    phone: "+390668804921",
    presentment: EUR,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "29.00" },
    destination: {
      firstName: "Marco",
      lastName: "Bianchi",
      address1: "Via dei Coronari, 45",
      city: "Roma",
      province: "Roma",
      provinceCode: "RM",
      zip: "00186",
      country: "Italy",
      countryCode: "IT",
      phone: "+390668804921",
    },
    items: [{ key: "duvet", quantity: 1 }],
  },
  {
    number: 1010,
    email: "chloe.nguyen@bigpond.com",
    phone: "+61394172264",
    presentment: AUD,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "42.00" },
    destination: {
      firstName: "Chloe",
      lastName: "Nguyen",
      address1: "18 Brunswick St",
      city: "Fitzroy",
      province: "Victoria",
      provinceCode: "VIC",
      zip: "3065",
      country: "Australia",
      countryCode: "AU",
      phone: "+61394172264",
    },
    items: [
      { key: "mug", quantity: 4 },
      { key: "dripper", quantity: 1 },
    ],
  },
  {
    number: 1011,
    email: "felix@kaffee-wagner.de",
    phone: "+494043098251",
    presentment: EUR,
    shipping: { title: "International Express", code: "INTL_EXPRESS", amountUsd: "96.00" },
    destination: {
      firstName: "Felix",
      lastName: "Wagner",
      company: "Kaffeerösterei Wagner GmbH",
      address1: "Schanzenstraße 59",
      city: "Hamburg",
      zip: "20357",
      country: "Germany",
      countryCode: "DE",
      phone: "+494043098251",
    },
    items: [{ key: "grinder", quantity: 2 }],
  },
  {
    number: 1012,
    email: "james.oconnor@outlook.com",
    phone: "+15032367710",
    presentment: USD,
    shipping: { title: "Ground Freight", code: "GROUND", amountUsd: "64.00" },
    destination: {
      firstName: "James",
      lastName: "O'Connor",
      address1: "3815 SE Belmont St",
      city: "Portland",
      province: "Oregon",
      provinceCode: "OR",
      zip: "97214",
      country: "United States",
      countryCode: "US",
      phone: "+15032367710",
    },
    items: [
      { key: "kettlebell", quantity: 2 },
      { key: "skillet", quantity: 1 },
    ],
  },
  {
    number: 1013,
    email: "liam.chen@shaw.ca",
    phone: null,
    presentment: CAD,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "24.00" },
    destination: {
      firstName: "Liam",
      lastName: "Chen",
      address1: "2150 W 4th Ave",
      city: "Vancouver",
      province: "British Columbia",
      provinceCode: "BC",
      zip: "V6K 1N6",
      country: "Canada",
      countryCode: "CA",
      phone: null,
    },
    items: [{ key: "journal", quantity: 1 }],
  },
  {
    number: 1014,
    email: "amelia.clarke@icloud.com",
    phone: "+442072298814",
    presentment: GBP,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "27.00" },
    destination: {
      firstName: "Amelia",
      lastName: "Clarke",
      address1: "41 Westbourne Grove",
      address2: "Flat 3",
      city: "London",
      province: "England",
      zip: "W2 4UA",
      country: "United Kingdom",
      countryCode: "GB",
      phone: "+442072298814",
    },
    items: [
      { key: "tote", quantity: 2 },
      { key: "soap", quantity: 3 },
    ],
  },
  {
    number: 1015,
    email: "priya.sharma@rogers.com",
    phone: "+14169235517",
    presentment: CAD,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "24.00" },
    destination: {
      firstName: "Priya",
      lastName: "Sharma",
      address1: "88 Harbord St",
      city: "Toronto",
      province: "Ontario",
      provinceCode: "ON",
      zip: "M5S 1G5",
      country: "Canada",
      countryCode: "CA",
      phone: "+14169235517",
    },
    items: [{ key: "bundle", quantity: 1 }],
  },
  {
    number: 1016,
    email: "daniel.kim@protonmail.com",
    phone: "+12063294418",
    presentment: USD,
    shipping: { title: "Standard Shipping", code: "STANDARD", amountUsd: "12.95" },
    destination: {
      firstName: "Daniel",
      lastName: "Kim",
      address1: "2211 Eastlake Ave E",
      city: "Seattle",
      province: "Washington",
      provinceCode: "WA",
      zip: "98102",
      country: "United States",
      countryCode: "US",
      phone: "+12063294418",
    },
    items: [
      { key: "mug", quantity: 1 },
      { key: "duvet", quantity: 1 },
      { key: "skillet", quantity: 1 },
    ],
    split: [
      { location: "brooklyn", itemIndexes: [0] },
      { location: "reno", itemIndexes: [1, 2] },
    ],
  },
  {
    number: 1017,
    email: "rachel.goldberg@nyu.edu",
    phone: "+12126753390",
    presentment: USD,
    shipping: { title: "Standard Shipping", code: "STANDARD", amountUsd: "8.95" },
    destination: {
      firstName: "Rachel",
      lastName: "Goldberg",
      address1: "415 W 23rd St",
      address2: "Apt 7C",
      city: "New York",
      province: "New York",
      provinceCode: "NY",
      zip: "10011",
      country: "United States",
      countryCode: "US",
      phone: "+12126753390",
    },
    items: [
      { key: "mug", quantity: 4 },
      { key: "dripper", quantity: 2 },
      { key: "duvet", quantity: 1 },
    ],
    split: [
      { location: "brooklyn", itemIndexes: [0, 1], status: "IN_PROGRESS", remaining: [1, 2] },
      { location: "reno", itemIndexes: [2], status: "CLOSED", remaining: [0] },
    ],
    existingFulfillments: [
      {
        foIndex: 0,
        itemIndex: 0,
        quantity: 3,
        company: "USPS",
        number: "9400111899223856412017",
        url: "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223856412017",
        daysAgo: 0.25,
      },
      {
        foIndex: 1,
        itemIndex: 2,
        quantity: 1,
        company: "UPS",
        number: "1Z84V7E10394827316",
        url: "https://www.ups.com/track?tracknum=1Z84V7E10394827316",
        daysAgo: 0.25,
      },
    ],
  },
  {
    number: 1018,
    email: "nora.lindqvist@gmail.com",
    phone: "+17185550123",
    presentment: USD,
    shipping: { title: "Pickup at Brooklyn Warehouse", code: "PICKUP", amountUsd: "0.00" },
    deliveryMethod: "PICK_UP",
    destination: {
      firstName: "Nora",
      lastName: "Lindqvist",
      address1: "145 Bedford Ave",
      city: "Brooklyn",
      province: "New York",
      provinceCode: "NY",
      zip: "11211",
      country: "United States",
      countryCode: "US",
      phone: "+17186254471",
    },
    items: [{ key: "skillet", quantity: 1 }],
  },
  {
    number: 1019,
    email: "tomas.reyes@hey.com",
    phone: "+17187736620",
    presentment: USD,
    shipping: { title: "Local Delivery", code: "LOCAL", amountUsd: "5.00" },
    deliveryMethod: "LOCAL",
    destination: {
      firstName: "Tomás",
      lastName: "Reyes",
      address1: "88 Greenpoint Ave",
      city: "Brooklyn",
      province: "New York",
      provinceCode: "NY",
      zip: "11222",
      country: "United States",
      countryCode: "US",
      phone: "+17187736620",
    },
    items: [{ key: "mug", quantity: 2 }],
  },
  {
    number: 1020,
    email: "harriet.shaw@gmail.com",
    phone: "+441314960772",
    presentment: GBP,
    shipping: { title: "International Express (duties included)", code: "INTL_EXPRESS_DDP", amountUsd: "34.00" },
    incoterm: "DDP",
    destination: {
      firstName: "Harriet",
      lastName: "Shaw",
      address1: "12 Dundas Street",
      city: "Edinburgh",
      province: "Scotland",
      zip: "EH3 6HZ",
      country: "United Kingdom",
      countryCode: "GB",
      phone: "+441314960772",
    },
    items: [{ key: "journal", quantity: 1 }],
  },
  {
    number: 1021,
    email: "etienne.gagnon@sympatico.ca",
    phone: "+16135527348",
    presentment: CAD,
    shipping: { title: "International Standard", code: "INTL_STANDARD", amountUsd: "24.00" },
    discount: 0.2,
    destination: {
      firstName: "Étienne",
      lastName: "Gagnon",
      address1: "210 Rideau St",
      city: "Ottawa",
      province: "Ontario",
      provinceCode: "ON",
      zip: "K1N 5Y1",
      country: "Canada",
      countryCode: "CA",
      phone: "+16135527348",
    },
    items: [{ key: "sweater", quantity: 1 }],
  },
  {
    number: 1022,
    email: "maya.patel@fastmail.com",
    phone: "+13125584410",
    presentment: USD,
    shipping: { title: "Standard Shipping", code: "STANDARD", amountUsd: "8.95" },
    movedFrom: "reno",
    destination: {
      firstName: "Maya",
      lastName: "Patel",
      address1: "1550 N Damen Ave",
      city: "Chicago",
      province: "Illinois",
      provinceCode: "IL",
      zip: "60622",
      country: "United States",
      countryCode: "US",
      phone: "+13125584410",
    },
    // She moved after ordering; the fulfillment order carries the new address, the order the old one.
    fulfillmentDestination: {
      firstName: "Maya",
      lastName: "Patel",
      company: "Lakeview Pediatrics",
      address1: "3000 N Halsted St",
      address2: "Suite 200",
      city: "Chicago",
      province: "Illinois",
      zip: "60657",
      country: "United States",
      countryCode: "US",
      phone: "+13125589921",
    },
    items: [{ key: "dripper", quantity: 1 }],
  },
];

export const LAST_ORDER_NUMBER = Math.max(...ORDER_SPECS.map((spec) => spec.number));

// Fixed clock so seeded data (and test snapshots) do not drift.
export const SEED_NOW = Date.parse("2026-11-20T15:00:00Z");
export const isoDaysAgo = (days: number) => new Date(SEED_NOW - days * 86_400_000).toISOString();

function convert(amountUsd: string, rate: number): string {
  return (Number(amountUsd) * rate).toFixed(2);
}

function money(amountUsd: string, presentment: { currency: string; rate: number }): MoneyBag {
  return {
    shopMoney: { amount: amountUsd, currencyCode: "USD" },
    presentmentMoney: { amount: convert(amountUsd, presentment.rate), currencyCode: presentment.currency },
  };
}

/** A fulfillment order's assignedLocation: the location's address as it was when assigned. */
export function assignedLocationOf(location: LocationRecord): FulfillmentOrderRecord["assignedLocation"] {
  return {
    __typename: "FulfillmentOrderAssignedLocation",
    name: location.name,
    address1: location.address.address1,
    address2: location.address.address2,
    city: location.address.city,
    province: location.address.provinceCode,
    zip: location.address.zip,
    countryCode: location.address.countryCode ?? "US",
    phone: location.address.phone,
    location,
  };
}

export function buildOrder(
  spec: OrderSpec,
  index: number,
  variants: ReadonlyMap<string, ProductVariantRecord>,
  locations: ReturnType<typeof buildLocations>,
): OrderRecord {
  const orderNumericId = 5829104000 + spec.number;
  const orderId = gid("Order", orderNumericId);
  const name = `#${spec.number}`;
  // Order numbers grow with time, like Shopify's: #1001 is the oldest (about 16 days ago).
  const createdAt =
    spec.createdAt ?? isoDaysAgo(spec.createdDaysAgo ?? ((LAST_ORDER_NUMBER + 1 - spec.number) * 18) / 24);
  const d = spec.destination;
  const fd = spec.fulfillmentDestination ?? d;
  const method = spec.deliveryMethod ?? "SHIPPING";

  const lineItems: LineItemRecord[] = spec.items.map((item, i) => {
    const variant = variants.get(item.key);
    if (!variant) throw new Error(`seed: unknown catalog key ${item.key}`);
    const unit = money(variant.price, spec.presentment);
    const paid = money((Number(variant.price) * (1 - (spec.discount ?? 0))).toFixed(2), spec.presentment);
    return {
      __typename: "LineItem",
      id: gid("LineItem", 14100000000 + spec.number * 10 + i),
      title: variant.product.title,
      name: variant.product.title,
      variantTitle: null,
      sku: variant.sku,
      vendor: variant.product.vendor,
      quantity: item.quantity,
      currentQuantity: item.quantity,
      requiresShipping: true,
      isGiftCard: false,
      taxable: true,
      originalUnitPriceSet: unit,
      discountedUnitPriceAfterAllDiscountsSet: paid,
      originalTotalSet: money((Number(variant.price) * item.quantity).toFixed(2), spec.presentment),
      variant,
      product: variant.product,
      weight: variant.inventoryItem.measurement.weight,
    };
  });

  const address: MailingAddressRecord = {
    __typename: "MailingAddress",
    id: gid("MailingAddress", 9120000000 + spec.number),
    firstName: d.firstName,
    lastName: d.lastName,
    name: `${d.firstName} ${d.lastName}`,
    company: d.company ?? null,
    address1: d.address1,
    address2: d.address2 ?? null,
    city: d.city,
    province: d.province ?? null,
    provinceCode: d.provinceCode ?? null,
    zip: d.zip,
    country: d.country,
    countryCodeV2: d.countryCode,
    phone: d.phone,
    coordinatesValidated: true,
  };

  const groups: NonNullable<OrderSpec["split"]> = spec.split ?? [
    { location: "brooklyn", itemIndexes: lineItems.map((_, i) => i) },
  ];
  // The fulfillment order the items were moved from comes first, closed and with nothing left.
  const allGroups = spec.movedFrom
    ? [
        {
          location: spec.movedFrom,
          itemIndexes: lineItems.map((_, i) => i),
          status: "CLOSED" as const,
          remaining: lineItems.map(() => 0),
          hidden: true,
        },
        ...groups,
      ]
    : groups;
  const international = fd.countryCode !== "US";
  const fulfillmentOrders: FulfillmentOrderRecord[] = allGroups.map((group, g) => {
    const location = locations[group.location];
    const foNumeric = 6620000000 + spec.number * 10 + g;
    return {
      __typename: "FulfillmentOrder",
      id: gid("FulfillmentOrder", foNumeric),
      orderId,
      orderName: name,
      status: group.status ?? "OPEN",
      requestStatus: "UNSUBMITTED",
      createdAt,
      updatedAt: createdAt,
      orderProcessedAt: createdAt,
      fulfillAt: createdAt,
      fulfillBy: null,
      assignedLocation: assignedLocationOf(location),
      // A pickup has no destination: the customer comes to the location.
      destination:
        method === "PICK_UP"
          ? null
          : {
              __typename: "FulfillmentOrderDestination",
              id: gid("FulfillmentOrderDestination", foNumeric),
              firstName: fd.firstName,
              lastName: fd.lastName,
              company: fd.company ?? null,
              address1: fd.address1,
              address2: fd.address2 ?? null,
              city: fd.city,
              province: fd.province ?? null,
              zip: fd.zip,
              countryCode: fd.countryCode,
              phone: fd.phone,
              email: spec.email,
            },
      deliveryMethod: {
        __typename: "DeliveryMethod",
        id: gid("DeliveryMethod", foNumeric),
        methodType: method,
        serviceCode: spec.shipping.code,
        presentedName: spec.shipping.title,
      },
      internationalDuties: international
        ? { __typename: "FulfillmentOrderInternationalDuties", incoterm: spec.incoterm ?? "DAP" }
        : null,
      ...("hidden" in group && group.hidden ? { hiddenFromMerchant: true } : {}),
      lineItems: group.itemIndexes.map((itemIndex, k) => {
        const li = lineItems[itemIndex];
        if (!li) throw new Error(`seed: order ${name} has no line item ${itemIndex}`);
        return {
          __typename: "FulfillmentOrderLineItem" as const,
          id: gid("FulfillmentOrderLineItem", 13900000000 + spec.number * 100 + g * 10 + k),
          lineItem: li,
          totalQuantity: li.quantity,
          remainingQuantity: group.remaining?.[k] ?? li.quantity,
          sku: li.sku,
          productTitle: li.title,
          variantTitle: li.variantTitle,
          vendor: li.vendor,
          requiresShipping: true,
          weight: li.weight,
          inventoryItemId: li.variant?.inventoryItem.id ?? null,
          variant: li.variant,
        };
      }),
      fulfillmentHolds: [],
    };
  });

  const fulfillments: FulfillmentRecord[] = (spec.existingFulfillments ?? []).map((f, i) => {
    const fo = fulfillmentOrders[f.foIndex];
    const li = lineItems[f.itemIndex];
    const foLine = fo?.lineItems.find((l) => l.lineItem === li);
    if (!fo || !li || !foLine) throw new Error(`seed: bad existing fulfillment on ${name}`);
    return {
      __typename: "Fulfillment",
      id: gid("Fulfillment", 5310000000 + spec.number * 10 + i),
      name: `${name}-F${i + 1}`,
      orderId,
      status: "SUCCESS",
      createdAt: isoDaysAgo(f.daysAgo),
      updatedAt: isoDaysAgo(f.daysAgo),
      fulfillmentOrderIds: [fo.id],
      trackingInfo: [{ company: f.company, number: f.number, url: f.url }],
      notifyCustomer: true,
      createdThroughApi: false,
      lineItems: [
        {
          id: gid("FulfillmentLineItem", 5320000000 + spec.number * 10 + i),
          fulfillmentOrderLineItemId: foLine.id,
          lineItem: li,
          quantity: f.quantity,
        },
      ],
    };
  });

  const subtotal = lineItems.reduce(
    (sum, li) => sum + Number(li.discountedUnitPriceAfterAllDiscountsSet.shopMoney.amount) * li.quantity,
    0,
  );
  const total = (subtotal + Number(spec.shipping.amountUsd)).toFixed(2);
  return {
    __typename: "Order",
    id: orderId,
    name,
    createdAt,
    processedAt: createdAt,
    updatedAt: createdAt,
    email: spec.email,
    phone: spec.phone,
    note: null,
    tags: [],
    currencyCode: "USD",
    presentmentCurrencyCode: spec.presentment.currency,
    displayFinancialStatus: "PAID",
    closed: false,
    closedAt: null,
    cancelledAt: null,
    cancelReason: null,
    test: false,
    shippingAddress: method === "PICK_UP" ? null : address,
    billingAddress: { ...address, id: gid("MailingAddress", 9130000000 + spec.number) },
    shippingLine: {
      __typename: "ShippingLine",
      id: gid("ShippingLine", 4410000000 + index),
      title: spec.shipping.title,
      code: spec.shipping.code,
      source: "shopify",
      carrierIdentifier: null,
      originalPriceSet: money(spec.shipping.amountUsd, spec.presentment),
    },
    subtotalPriceSet: money(subtotal.toFixed(2), spec.presentment),
    totalPriceSet: money(total, spec.presentment),
    lineItems,
    fulfillmentOrders,
    fulfillments,
    localizedFields: (spec.localizedFields ?? []).map((f) => ({ __typename: "LocalizedField" as const, ...f })),
  };
}

// A fresh, independent copy of the store every call, so reset() and parallel tests never share state.
export interface SeedContext {
  variants: Map<string, ProductVariantRecord>;
  locations: ReturnType<typeof buildLocations>;
  firstIndex: number;
}

// `history` adds orders placed before the scenario orders (generated-orders.ts), built from the
// same catalog and locations.
export function createSeedState(
  options: { shop?: string; history?: (context: SeedContext) => OrderRecord[] } = {},
): ShopifyEmulatorState {
  const domain = options.shop ?? DEFAULT_SHOP_DOMAIN;
  const variants = buildVariants();
  const locations = buildLocations();
  const shopAddress = {
    __typename: "ShopAddress" as const,
    id: gid("ShopAddress", 6112000001),
    company: "Harbor & Pine Goods LLC",
    address1: "250 Kent Ave",
    address2: "Unit 4B",
    city: "Brooklyn",
    province: "New York",
    provinceCode: "NY",
    zip: "11249",
    country: "United States",
    countryCodeV2: "US",
    phone: "+17183872941",
    coordinatesValidated: true,
  };
  return {
    shop: {
      __typename: "Shop",
      id: gid("Shop", 61120000),
      name: "Harbor & Pine Goods",
      email: "owner@harborandpine.com",
      contactEmail: "hello@harborandpine.com",
      myshopifyDomain: domain,
      currencyCode: "USD",
      weightUnit: "POUNDS",
      unitSystem: "IMPERIAL_SYSTEM",
      ianaTimezone: "America/New_York",
      shopAddress,
      billingAddress: shopAddress,
      plan: { __typename: "ShopPlan", shopifyPlus: false, partnerDevelopment: true, publicDisplayName: "Development" },
    },
    locations: [locations.brooklyn, locations.reno],
    variants,
    orders: [
      ...(options.history?.({ variants, locations, firstIndex: ORDER_SPECS.length }) ?? []),
      ...ORDER_SPECS.map((spec, i) => buildOrder(spec, i, variants, locations)),
    ],
    nextId: 1,
  };
}
