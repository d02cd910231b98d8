import type { PrismaClient } from "@prisma/client";

import type { LabelView } from "~/labels/label-repository.server";
import { describePackingSlip } from "~/labels/packing-slip";
import type { PackingSlipMode } from "~/settings/settings";
import { getShopSettings } from "~/settings/settings.server";

import { buildMergedPdf, type FetchFile, type PrintableLabel, toPrintableLabel } from "./label-print.server";

// The one way labels become a printable PDF, whichever door prints them (the order page, a bulk
// run, Shopify's print menu): the shop's packing slip setting decides whether each label's slip
// follows it, or all slips follow all labels.

/** The labels with their slips when the shop prints them; labels without a file are left out. */
export async function withPackingSlips(
  db: PrismaClient,
  shop: string,
  labels: readonly LabelView[],
): Promise<{ printable: PrintableLabel[]; packingSlips: PackingSlipMode }> {
  const settings = await getShopSettings(db, shop);
  const printable = labels.flatMap((label) => {
    const file = toPrintableLabel(label);
    if (!file) return [];
    // A return label's parcel is packed by the customer: no packing slip goes with it.
    const slip =
      settings.packingSlips === "off" || label.kind === "return"
        ? null
        : describePackingSlip(label, settings.packingSlipNote);
    return [{ ...file, slip }];
  });
  return { printable, packingSlips: settings.packingSlips };
}

export async function buildLabelsPdf(
  deps: { db: PrismaClient; shop: string; fetchFile: FetchFile },
  labels: readonly LabelView[],
) {
  const { printable, packingSlips } = await withPackingSlips(deps.db, deps.shop, labels);
  return buildMergedPdf(printable, { fetchFile: deps.fetchFile }, { packingSlips });
}
