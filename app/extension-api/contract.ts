// What the admin UI extensions (extensions/) and the app's API routes for them
// (app/routes/api.extensions.*) say to each other. Types only: the extensions import them with
// `import type`, so nothing of the app lands in an extension's bundle.
//
// Every route answers JSON (the print route a PDF). A refusal is 4xx with `ExtensionErrorBody`:
// a merchant-readable message, and for a shipment that needs fixing its problems.

export type ExtensionMoney = { cents: number; currency: string };

/** A problem that stops a label, in the merchant's words; `fix` says what to do where. */
export type ExtensionProblem = { path: string; message: string; fix: string | null };

export type ExtensionLabel = {
  id: string;
  /**
   * "draft" (free, not bought), "bought" (paid; tracking may still be on its way to Shopify),
   * "in_progress" (being drafted or bought), or "voided" (a void asked: `refund` says where it stands).
   */
  state: "draft" | "bought" | "in_progress" | "voided";
  carrier: string | null;
  serviceName: string | null;
  /** The service's code: a draft is bought with it, at its quoted price. */
  serviceCode: string | null;
  /** What was charged once bought, else the quote. */
  price: ExtensionMoney | null;
  trackingNumbers: { number: string; url: string | null }[];
  /** PDF or PNG: the print menu's "Shipping label" prints it. ZPL is for thermal printers only. */
  format: string | null;
  printable: boolean;
  /** Set when the tracking could not be written to Shopify yet (it is retried automatically). */
  writeBackError: string | null;
  /** A bought label that may be voided now (ADR 22): bought, not scanned, within 30 days. */
  canVoid: boolean;
  /** A void asked for this label: its refund, pending until the carrier decides; null if never. */
  refund: { status: "pending" | "refunded" | "rejected"; amount: ExtensionMoney | null } | null;
};

export type ExtensionShipment = {
  fulfillmentOrderId: string;
  locationName: string;
  shipTo: { name: string; lines: string[]; country: string | null };
  /** One line per box, e.g. "30 × 20 × 10 cm · 1.20 kg". */
  boxes: string[];
  /** Null for a domestic shipment. */
  customs: null | {
    /** merchandise, documents, gift, returned_goods or sample. */
    contentsType: string;
    description: string;
    quantity: number;
    /** The declared value. */
    value: ExtensionMoney | null;
    hsCode: string | null;
    /** Country of origin, 2 letters. */
    origin: string | null;
  };
  /** Blocking problems: no rates and no purchase until fixed (in Shopify or on the app's order page). */
  problems: ExtensionProblem[];
  /** Worth a look, not blocking. */
  warnings: string[];
  /** The shipment's active label (a draft or a bought one): shown instead of offering a second. */
  label: ExtensionLabel | null;
};

/** GET /api/extensions/orders/:orderId/label */
export type ExtensionOrderState = {
  order: { id: string; legacyId: string; name: string };
  /** The app's label page for this order, for what needs the full form: an `app:` URL. */
  appUrl: string;
  /** The order's open shipment by carrier; null when there is none (then `nothingToShip` says why). */
  shipment: ExtensionShipment | null;
  nothingToShip: string | null;
  /** Set when the shop cannot buy labels yet (no API key): what to do. */
  setupProblem: string | null;
};

export type ExtensionRate = {
  serviceCode: string;
  carrier: string;
  serviceName: string;
  price: ExtensionMoney;
  deliveryDays: number | null;
};

/** POST /api/extensions/orders/:orderId/rates  body: { fulfillmentOrderId } */
export type ExtensionRatesRequest = { fulfillmentOrderId: string };
export type ExtensionRatesResponse = { rates: ExtensionRate[] };

/**
 * POST /api/extensions/orders/:orderId/label  body: ExtensionBuyRequest
 * Buys the shipment's label with the service the merchant chose, for exactly `expectedCents`:
 * when the service's price differs, nothing is bought and 409 PRICE_CHANGED carries the new rate.
 * A shipment that already has a bought label answers 409 ALREADY_LABELLED with it.
 */
export type ExtensionBuyRequest = {
  fulfillmentOrderId: string;
  serviceCode: string;
  expectedCents: number;
  currency: string;
};
export type ExtensionBuyResponse = { label: ExtensionLabel };

/**
 * POST /api/extensions/labels/:labelId/void  (no body)
 * Asks the carrier to void a bought label: its refund is then pending and its Shopify fulfillment
 * cancelled, so the shipment can be labelled again. Asked twice, the same answer (one refund).
 * A label that can't be voided (scanned, older than 30 days, not bought) is 409 NOT_VOIDABLE.
 */
export type ExtensionVoidResponse = { label: ExtensionLabel };

/** POST /api/extensions/bulk/preflight  body: { orderIds } (Order GIDs, at most 250). Spends nothing. */
export type ExtensionBulkPreflightRequest = { orderIds: string[] };
export type ExtensionBulkPreflightResponse = {
  /** Shipments ready to quote and buy. */
  ready: number;
  /** Orders with shipments that have blocking problems (one entry per order), and the app page that fixes them. */
  needsFixing: { orderName: string; appUrl: string; problems: string[] }[];
  /** Orders with a bought label already, or nothing to ship by carrier: a run leaves them out. */
  leftOut: { orderName: string; reason: string }[];
};

/** POST /api/extensions/bulk/runs  body: { orderIds } — starts a bulk run with the shop's rules. */
export type ExtensionBulkStartRequest = { orderIds: string[] };
export type ExtensionBulkStartResponse = { runId: string; reviewUrl: string };

/** GET /api/extensions/print/summary?orderIds=<gid>,<gid> — what the print menu would print. */
export type ExtensionPrintSummary = {
  /** Labels that go in the PDF (PDF and PNG labels), in order. */
  printable: { orderName: string; labelId: string }[];
  /** ZPL labels: not in the PDF; `howTo` says where to get them. */
  zplOnly: { orderName: string; howTo: string }[];
  /** Selected orders with no bought label. */
  withoutLabel: string[];
  /** GET this for the PDF (the print action's `src`); null when nothing is printable. */
  pdfPath: string | null;
};

export type ExtensionErrorCode =
  | "NOT_AUTHENTICATED"
  /** The signed-in staff member may not buy labels (Shopify does not let them fulfil orders). */
  | "NOT_ALLOWED"
  | "IN_PROGRESS"
  | "INVALID_REQUEST"
  | "NOT_FOUND"
  | "SETUP_REQUIRED"
  | "PREFLIGHT_BLOCKED"
  | "PRICE_CHANGED"
  | "ALREADY_LABELLED"
  /** The label can't be voided (scanned, older than 30 days, not bought); the message says which. */
  | "NOT_VOIDABLE"
  | "SERVICE_UNAVAILABLE"
  | "SHIPPING_REFUSED"
  | "SHOPIFY_UNAVAILABLE"
  | "NOTHING_TO_PRINT";

export type ExtensionErrorBody = {
  error: {
    code: ExtensionErrorCode;
    message: string;
    /** Request fields at fault, named as the request names them. */
    fields?: { path: string; message: string }[];
  };
  problems?: ExtensionProblem[];
  /** PRICE_CHANGED: the service's price now. */
  rate?: ExtensionRate;
  /** ALREADY_LABELLED: the label the shipment has. */
  label?: ExtensionLabel;
};
