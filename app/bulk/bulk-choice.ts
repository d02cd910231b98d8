import { z } from "zod";

import type { AutoDraftRule } from "~/auto-draft/auto-draft-rules";
import { describeService, findServiceByCode, type ServiceScope } from "~/shipping/services";

// How a bulk run picks each shipment's service: the shop's automatic-draft rules, or an override
// for the run (cheapest, fastest, a named service, or one pick for domestic shipments and another
// for international ones), as the run's action parses it. Its words for the review are in
// describe-bulk-choice.ts, apart from the validator the browser need not load.

const ServiceCodeSchema = z.string().regex(/^svc_[a-z0-9_]+$/, "Choose a service from the list.");

const CHEAPEST = z.object({ mode: z.literal("cheapest") });
const FASTEST = z.object({ mode: z.literal("fastest") });
const SERVICE = z.object({ mode: z.literal("service"), serviceCode: ServiceCodeSchema });

export const BulkPickSchema = z.discriminatedUnion("mode", [CHEAPEST, FASTEST, SERVICE]);
export type BulkPick = z.infer<typeof BulkPickSchema>;

/** Where a service named for one side of a per-destination choice must be able to ship. */
const REACHES: Record<"domestic" | "international", readonly ServiceScope[]> = {
  domestic: ["domestic"],
  international: ["international", "ca_mx"],
};

export const BulkChoiceSchema = z
  .discriminatedUnion("mode", [
    z.object({ mode: z.literal("rules") }),
    CHEAPEST,
    FASTEST,
    SERVICE,
    z.object({ mode: z.literal("destination"), domestic: BulkPickSchema, international: BulkPickSchema }),
  ])
  .superRefine((choice, ctx) => {
    if (choice.mode !== "destination") return;
    for (const side of ["domestic", "international"] as const) {
      const pick = choice[side];
      if (pick.mode !== "service") continue;
      const service = findServiceByCode(pick.serviceCode);
      if (!service || !REACHES[side].includes(service.scope)) {
        ctx.addIssue({
          code: "custom",
          path: [side, "serviceCode"],
          message: service
            ? `${describeService(service)} does not ship ${side === "domestic" ? "within the country" : "abroad"}: choose another for ${side} shipments.`
            : "Choose a service from the list.",
        });
      }
    }
  });
export type BulkChoice = z.infer<typeof BulkChoiceSchema>;

const DEFAULT_RULE: AutoDraftRule = {
  id: "bulk",
  destination: "any",
  countries: [],
  minWeight: null,
  maxWeight: null,
  weightUnit: "g",
  minOrderValue: null,
  maxOrderValue: null,
  choice: "cheapest",
  serviceCode: null,
  boxPresetId: null,
};

function ruleFor(pick: BulkPick, destination: AutoDraftRule["destination"]): AutoDraftRule {
  const id = `bulk-${destination}-${pick.mode}`;
  if (pick.mode === "service")
    return { ...DEFAULT_RULE, id, destination, choice: "service", serviceCode: pick.serviceCode };
  return { ...DEFAULT_RULE, id, destination, choice: pick.mode };
}

/** The override as automatic-draft rules (the check matches each shipment against them); null for "rules". */
export function rulesForOverride(choice: BulkChoice): AutoDraftRule[] | null {
  switch (choice.mode) {
    case "rules":
      return null;
    case "destination":
      return [ruleFor(choice.domestic, "domestic"), ruleFor(choice.international, "international")];
    default:
      return [ruleFor(choice, "any")];
  }
}
