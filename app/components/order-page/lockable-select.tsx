import { Select, TextField } from "@shopify/polaris";
import type { ComponentProps } from "react";

/**
 * A Select while the details can change; once drafted, the chosen option as a read-only text
 * field, legible like the others (a disabled select is greyed out and skipped by screen readers).
 */
export function LockableSelect({
  locked,
  ...props
}: { locked: boolean } & Omit<ComponentProps<typeof Select>, "options"> & {
    options: { label: string; value: string }[];
  }) {
  if (!locked) return <Select {...props} />;
  const chosen = props.options.find((o) => o.value === props.value);
  return (
    <TextField
      {...(props.id ? { id: props.id } : {})}
      label={props.label}
      value={chosen?.label ?? ""}
      readOnly
      autoComplete="off"
      {...(props.helpText ? { helpText: props.helpText } : {})}
      {...(props.error ? { error: props.error } : {})}
    />
  );
}
