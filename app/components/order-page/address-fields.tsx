import { FormLayout, TextField } from "@shopify/polaris";

import { problemsAt } from "~/shipments/label-form";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";

import { fieldId } from "./field-links";
import { fieldError, FieldNotes } from "./problem-list";

type Address = NonNullable<LabelRequestInput["to_address"]>;
type Field = "name" | "company" | "street1" | "street2" | "city" | "state" | "zip" | "country" | "phone" | "email";

const LABELS: Record<Field, string> = {
  name: "Name",
  company: "Company",
  street1: "Address",
  street2: "Apartment, suite, etc.",
  city: "City",
  state: "State / province",
  zip: "ZIP / postal code",
  country: "Country code",
  phone: "Phone",
  email: "Email",
};

// An editable address; each field shows the problems preflight found at its path.
export function AddressFields({
  prefix,
  address,
  problems,
  onChange,
  disabled,
  readOnly,
}: {
  prefix: "to_address" | "from_address";
  address: Address | null | undefined;
  problems: readonly KnownPreflightProblem[];
  onChange: (field: Field, value: string) => void;
  disabled?: boolean;
  /** A drafted label's address: shown as it was drafted, legible, not editable. */
  readOnly?: boolean;
}) {
  const field = (name: Field, options: { type?: "text" | "tel" | "email" } = {}) => {
    const at = problemsAt(problems, `${prefix}.${name}`);
    const value = address?.[name];
    return (
      <TextField
        id={fieldId(`${prefix}.${name}`)}
        label={LABELS[name]}
        value={typeof value === "string" ? value : ""}
        onChange={(v) => onChange(name, v)}
        autoComplete="off"
        type={options.type ?? "text"}
        error={fieldError(at)}
        helpText={<FieldNotes problems={at} />}
        disabled={disabled}
        readOnly={readOnly}
      />
    );
  };
  return (
    <FormLayout>
      <FormLayout.Group>
        {field("name")}
        {field("company")}
      </FormLayout.Group>
      {field("street1")}
      {field("street2")}
      <FormLayout.Group condensed>
        {field("city")}
        {field("state")}
        {field("zip")}
        {field("country")}
      </FormLayout.Group>
      <FormLayout.Group>
        {field("phone", { type: "tel" })}
        {field("email", { type: "email" })}
      </FormLayout.Group>
    </FormLayout>
  );
}
