import { BlockStack, Card, Text } from "@shopify/polaris";

import type { OrderLabelPage } from "~/routes/app.orders.$orderId/order-label-page.server";
import { problemsAt } from "~/shipments/label-form";
import type { KnownPreflightProblem } from "~/shipping/preflight";

import { fieldId } from "./field-links";
import { LockableSelect } from "./lockable-select";
import { fieldError } from "./problem-list";

type ShipFromOption = OrderLabelPage["shipFromOptions"][number];

// Where the label ships from: one of the shop's locations, whose address is the label's return
// address; Shopify's own choice of location is named beside it.

export function ShipFromCard({
  options,
  chosenId,
  onChoose,
  fulfilledFrom,
  problems,
  locked,
}: {
  options: ShipFromOption[];
  chosenId: string;
  onChoose: (option: ShipFromOption) => void;
  /** The location Shopify fulfills the shipment from. */
  fulfilledFrom: string;
  problems: KnownPreflightProblem[];
  locked: boolean;
}) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Ship from
        </Text>
        <LockableSelect
          locked={locked}
          id={fieldId("from_address")}
          label="Location"
          options={options.map((o) => ({ label: o.name, value: o.locationId }))}
          value={chosenId}
          onChange={(id) => {
            const option = options.find((o) => o.locationId === id);
            if (option) onChoose(option);
          }}
          helpText={`Shopify fulfills this shipment from ${fulfilledFrom}; the label's return address follows this choice.`}
          error={fieldError(problemsAt(problems, "from_address"))}
        />
      </BlockStack>
    </Card>
  );
}
