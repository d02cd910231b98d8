import { BlockStack, Card, Checkbox, FormLayout, Text, TextField } from "@shopify/polaris";

import { problemsAt } from "~/shipments/label-form";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";

import { fieldId } from "./field-links";
import { LockableSelect } from "./lockable-select";
import { parseNumberField } from "./number-field";
import { fieldError, FieldNotes } from "./problem-list";

// An international shipment's customs declaration, each field with its preflight notes, and
// "Save to product" when the HS code or origin differs from what the product holds in Shopify.
// Fields are grouped three across, not condensed: Polaris stacks a group in one column below
// 490 px, where three condensed fields were cut to a few characters each on a phone.

export function CustomsCard({
  request,
  problems,
  set,
  locked,
  saveToProduct,
}: {
  request: LabelRequestInput;
  problems: KnownPreflightProblem[];
  set: (path: string, value: unknown) => void;
  locked: boolean;
  /** Shown when the HS code or origin differs from the product's in Shopify. */
  saveToProduct: { productTitle: string; what: string; checked: boolean; onChange: (checked: boolean) => void } | null;
}) {
  const customs = request.customs ?? {};
  const text = (
    field: "description" | "hs_code" | "country_of_origin" | "tax_id" | "eel_pfc",
    label: string,
    help?: string,
  ) => {
    const at = problemsAt(problems, `customs.${field}`);
    const value = customs[field];
    return (
      <TextField
        id={fieldId(`customs.${field}`)}
        readOnly={locked}
        label={label}
        value={typeof value === "string" ? value : ""}
        onChange={(v) => set(`customs.${field}`, v || null)}
        autoComplete="off"
        error={fieldError(at)}
        helpText={
          <BlockStack gap="100">
            {help ? <span>{help}</span> : null}
            <FieldNotes problems={at} {...(locked ? {} : { onUseSuggestion: (s) => set(`customs.${field}`, s) })} />
          </BlockStack>
        }
      />
    );
  };
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Customs
        </Text>
        <FormLayout>
          {text("description", "Contents description", 'Say what the items are, e.g. "Ceramic coffee mugs"')}
          <FormLayout.Group>
            <TextField
              id={fieldId("customs.value")}
              readOnly={locked}
              label="Declared value (USD)"
              type="number"
              value={customs.value == null ? "" : String(customs.value)}
              onChange={(v) => set("customs.value", parseNumberField(v))}
              autoComplete="off"
              prefix="$"
              error={fieldError(problemsAt(problems, "customs.value"))}
            />
            {text("hs_code", "HS code")}
            {text("country_of_origin", "Country of origin")}
          </FormLayout.Group>
          {saveToProduct ? (
            <Checkbox
              id={fieldId("customs.save_to_product")}
              label={`Save to product: ${saveToProduct.productTitle}`}
              checked={saveToProduct.checked}
              onChange={saveToProduct.onChange}
              helpText={`Writes ${saveToProduct.what} to the product in Shopify when the draft is made, so its next orders are prefilled.`}
            />
          ) : null}
          <FormLayout.Group>
            <LockableSelect
              locked={locked}
              id={fieldId("customs.contents_type")}
              label="Contents type"
              options={["merchandise", "documents", "gift", "returned_goods", "sample"].map((v) => ({
                // Sentence case, as the admin writes a choice: "Returned goods".
                label: `${v.charAt(0).toUpperCase()}${v.slice(1).replace("_", " ")}`,
                value: v,
              }))}
              value={customs.contents_type ?? "merchandise"}
              onChange={(v) => set("customs.contents_type", v)}
            />
            {text("tax_id", "Recipient tax id (CPF, codice fiscale…)")}
            {text("eel_pfc", "Export declaration (AES ITN or exemption)")}
          </FormLayout.Group>
        </FormLayout>
      </BlockStack>
    </Card>
  );
}
