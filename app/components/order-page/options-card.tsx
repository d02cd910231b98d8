import { BlockStack, Card, Checkbox, FormLayout, Select, Text, TextField } from "@shopify/polaris";

import { problemsAt } from "~/shipments/label-form";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";

import { fieldId } from "./field-links";
import { fieldError, FieldNotes } from "./problem-list";

// Insurance, a signature and lithium batteries (contract.md, "Label options"): each changes the
// rates (their price, and which services may carry the parcel), so rates are quoted with them.
// Preflight names a wrong value at its field before anything is sent.

type Options = { insurance?: { amount?: unknown; currency?: unknown }; signature?: unknown; hazmat?: unknown };

export function OptionsCard({
  request,
  problems,
  set,
  locked,
  lockedOptions,
  itemsValue,
}: {
  request: LabelRequestInput;
  problems: KnownPreflightProblem[];
  set: (path: string, value: unknown) => void;
  locked: boolean;
  /** The drafted label's options in words (from its own request), shown while it is locked. */
  lockedOptions: readonly string[];
  /** What the customer paid for the items, to insure them for it; null when unknown. */
  itemsValue: { amount: string; currency: string } | null;
}) {
  const options = ((request as { options?: Options }).options ?? {}) satisfies Options;
  const insured = options.insurance !== undefined;
  const amount = typeof options.insurance?.amount === "string" ? options.insurance.amount : "";
  // The service insures in US dollars; another currency's value is not offered as the amount.
  const suggested = itemsValue?.currency === "USD" ? itemsValue.amount : "";
  if (locked) {
    // A drafted label's options, read-only yet legible (no disabled controls), like its other fields.
    return (
      <Card>
        <TextField
          id={fieldId("options")}
          label="Options"
          readOnly
          value={lockedOptions.length > 0 ? lockedOptions.join(" · ") : "None"}
          autoComplete="off"
        />
      </Card>
    );
  }
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Options
        </Text>
        {/* What the shop's rules chose (Settings), and anything else worth a look on an option. */}
        <FieldNotes problems={problemsAt(problems, "options")} />
        <FormLayout>
          <Checkbox
            id={fieldId("options.insurance")}
            label="Insure this shipment"
            helpText="1% of the insured value, at least $1.00; up to $5,000."
            checked={insured}
            onChange={(checked) =>
              set("options.insurance", checked ? { amount: suggested, currency: "USD" } : undefined)
            }
          />
          {insured ? (
            <TextField
              id={fieldId("options.insurance.amount")}
              label="Insured value"
              type="number"
              prefix="$"
              value={amount}
              onChange={(v) => set("options.insurance.amount", v)}
              autoComplete="off"
              helpText={
                itemsValue ? `The customer paid ${itemsValue.amount} ${itemsValue.currency} for the items.` : undefined
              }
              error={fieldError(problemsAt(problems, "options.insurance"))}
            />
          ) : null}
          <Select
            id={fieldId("options.signature")}
            label="Signature on delivery"
            options={[
              { label: "No signature", value: "" },
              { label: "Signature (+$2.95)", value: "standard" },
              { label: "Adult signature, 21+ (+$6.95)", value: "adult" },
            ]}
            value={typeof options.signature === "string" ? options.signature : ""}
            onChange={(v) => set("options.signature", v === "" ? undefined : v)}
            error={fieldError(problemsAt(problems, "options.signature"))}
          />
          <Checkbox
            id={fieldId("options.hazmat")}
            label="Contains lithium batteries"
            helpText="Ships by ground services only."
            checked={options.hazmat === "lithium_batteries"}
            onChange={(checked) => set("options.hazmat", checked ? "lithium_batteries" : undefined)}
            error={fieldError(problemsAt(problems, "options.hazmat"))}
          />
        </FormLayout>
      </BlockStack>
    </Card>
  );
}
