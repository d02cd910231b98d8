import type { PrismaClient } from "@prisma/client";

import { discardDraft, type DiscardShippingPort } from "~/labels/discard-draft.server";
import { type LabelError, labelError } from "~/labels/label-errors";
import type { LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import type { AdminGraphqlClient } from "~/shopify/admin-client";
import type { OrderGid } from "~/shopify/ids";
import { err, ok, type Result } from "~/utils/result";

import { checkForDraft } from "./check-shipment";
import { type DraftOutcome, draftShipment, type DraftShippingPort } from "./draft-shipment.server";
import { loadShipment } from "./load-shipment.server";
import { checkQuotedRequest, confirmQuotedRate } from "./rate-quotes.server";
import { type ProductCustomsSave, saveCustomsToProduct, type SaveToProduct } from "./save-customs-to-product.server";

// "Edit" on a drafted label: the merchant changes the drafted request and chooses a rate again,
// and the draft is replaced. A fulfillment order holds one active label, so the old draft is
// discarded (labels/discard-draft.server.ts: the service asked first, never a label it reports
// bought) and the new one drafted through the pipeline (check → draft). Drafts cost nothing; the
// new request is checked before anything is discarded, so a refusal keeps the old draft as it was.

export type RedraftDeps = {
  db: PrismaClient;
  shop: string;
  admin: AdminGraphqlClient;
  shipping: DiscardShippingPort & DraftShippingPort;
  staffMemberId: string | null;
  now?: () => Date;
};

export type RedraftInput = {
  orderGid: OrderGid;
  /** The draft being replaced: it must still be this fulfillment order's active label, a draft. */
  labelId: string;
  fulfillmentOrderId: string;
  request: LabelRequestInput;
  lineItems: { id: string; quantity: number }[];
  rate: Rate;
  /** "Save to product": a fixed HS code or origin goes to the product once the draft is made. */
  saveToProduct?: SaveToProduct | false;
};

export type RedraftOutcome = DraftOutcome & { replacedLabelId: string; productSave: ProductCustomsSave | null };

export async function redraftShipment(
  deps: RedraftDeps,
  input: RedraftInput,
): Promise<Result<RedraftOutcome, LabelError>> {
  const located = await loadShipment(deps, { id: input.fulfillmentOrderId, orderGid: input.orderGid });
  if (!located.ok) return located;
  const shipment = located.value;
  const current = shipment.activeLabel;
  // Only the draft the page showed is replaced: a label bought, being bought, or drafted anew
  // meanwhile (another tab, the worker) is never discarded on the strength of an older page.
  if (current?.id !== input.labelId || current.status !== "draft") {
    return err(
      labelError(
        "INVALID_STATE",
        current && current.status !== "draft"
          ? "This label is no longer a draft, so it was not changed. Reload the page to see it."
          : "This shipment's draft changed since the page was opened. Reload the page and edit it again.",
        `redraftShipment: ${input.labelId} is not the active draft of ${input.fulfillmentOrderId} (active: ${current?.id ?? "none"} ${current?.status ?? ""})`,
      ),
    );
  }

  const now = deps.now?.() ?? new Date();
  // The server's own quote under the posted id, never the post's price (issue 40).
  const quoted = await confirmQuotedRate(deps, input.rate, now);
  if (!quoted.ok) return quoted;
  const quote = quoted.value.rate;
  const ready = checkForDraft(shipment, { request: input.request, lineItems: input.lineItems, quote, now });
  if (!ready.ok) return ready;
  const asQuoted = checkQuotedRequest(quoted.value, ready.value.request);
  if (!asQuoted.ok) return asQuoted;

  const discarded = await discardDraft(
    { db: deps.db, shop: deps.shop, shipping: deps.shipping, staffMemberId: deps.staffMemberId },
    input.labelId,
  );
  if (!discarded.ok) return discarded;
  if (!discarded.value.discarded) {
    return err(
      labelError(
        "INVALID_STATE",
        "The shipping service reports this label as bought, so it was kept and not changed. Reload the page to see it.",
        `redraftShipment: ${input.labelId} found ${discarded.value.label.status} at the service`,
      ),
    );
  }
  const drafted = await draftShipment({ db: deps.db, shop: deps.shop, shipping: deps.shipping, now }, ready.value);
  if (!drafted.ok) {
    // The old draft is gone: say so, or the merchant looks for it.
    return err({
      ...drafted.error,
      message: `Your earlier draft was discarded, but the new one could not be made: ${drafted.error.message} Choose a rate again to create it.`,
    });
  }
  // Another tab or an automatic draft took the shipment's slot between the discard and ours: that
  // label stands, and it is not the merchant's edit.
  if (drafted.value.existing) {
    return err(
      labelError(
        "INVALID_STATE",
        "Another draft was made for this shipment while you edited it, so your changes were not applied. Reload the page to see it, then edit it again.",
        `redraftShipment: ${drafted.value.label.id} took ${input.fulfillmentOrderId} after ${input.labelId} was discarded`,
      ),
    );
  }
  const productSave = input.saveToProduct
    ? await saveCustomsToProduct(deps, ready.value.customsProduct, ready.value.request.customs, input.saveToProduct)
    : null;
  return ok({ ...drafted.value, replacedLabelId: input.labelId, productSave });
}
