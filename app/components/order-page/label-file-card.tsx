import { BlockStack, Card, FormLayout, Text, TextField } from "@shopify/polaris";

import type { OrderLabelPage } from "~/routes/app.orders.$orderId/order-label-page.server";
import { problemsAt } from "~/shipments/label-form";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";

import { fieldId } from "./field-links";
import { LockableSelect } from "./lockable-select";
import { fieldError } from "./problem-list";

// The label file and its day: format and size (the shop's settings until changed), ship date.
// One group, not condensed: on a phone (below 490 px) Polaris stacks it in one column, where
// condensed it cut the format's select short and pushed the ship date past the screen's edge.

export function LabelFileCard({
  request,
  set,
  problems,
  locked,
  defaults,
}: {
  request: LabelRequestInput;
  set: (path: string, value: unknown) => void;
  problems: KnownPreflightProblem[];
  locked: boolean;
  defaults: Pick<OrderLabelPage["settings"], "labelFormat" | "labelSize">;
}) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Label
        </Text>
        <FormLayout>
          <FormLayout.Group>
            <LockableSelect
              locked={locked}
              id={fieldId("label_format")}
              label="Format"
              options={[
                { label: "PDF", value: "pdf" },
                { label: "PNG", value: "png" },
                { label: "ZPL (thermal printer)", value: "zpl" },
              ]}
              value={request.label_format ?? defaults.labelFormat}
              onChange={(v) => set("label_format", v)}
            />
            <LockableSelect
              locked={locked}
              id={fieldId("label_size")}
              label="Size"
              options={[
                { label: "4 × 6 in", value: "4x6" },
                { label: "4 × 8 in", value: "4x8" },
              ]}
              value={request.label_size ?? defaults.labelSize}
              onChange={(v) => set("label_size", v)}
            />
            <TextField
              id={fieldId("ship_date")}
              readOnly={locked}
              label="Ship date"
              type="date"
              value={request.ship_date ?? ""}
              onChange={(v) => set("ship_date", v || null)}
              autoComplete="off"
              helpText="Today when empty"
              error={fieldError(problemsAt(problems, "ship_date"))}
            />
          </FormLayout.Group>
        </FormLayout>
      </BlockStack>
    </Card>
  );
}
