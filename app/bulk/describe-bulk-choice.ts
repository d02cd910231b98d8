import { describeService, findServiceByCode } from "~/shipping/services";

import type { BulkChoice, BulkPick } from "./bulk-choice";

// A bulk run's choice of services in the merchant's words, for the run's review (in the browser).

function describePick(pick: BulkPick): string {
  if (pick.mode === "cheapest") return "the cheapest rate";
  if (pick.mode === "fastest") return "the fastest rate";
  const service = findServiceByCode(pick.serviceCode);
  return service ? describeService(service) : pick.serviceCode;
}

/** The run's choice in the merchant's words, for its review. */
export function describeBulkChoice(choice: BulkChoice): string {
  switch (choice.mode) {
    case "rules":
      return "Services chosen by your automatic draft rules in Settings.";
    case "destination":
      return `Domestic shipments: ${describePick(choice.domestic)}. International shipments: ${describePick(choice.international)}. Where a named service is not offered, the cheapest rate is drafted.`;
    case "service":
      return `${describePick(choice)} for every shipment; where it is not offered, the cheapest rate is drafted.`;
    default:
      return `${describePick(choice).replace(/^t/, "T")} for every shipment.`;
  }
}
