import {
  Badge,
  BlockStack,
  Button,
  Card,
  Checkbox,
  Divider,
  Form,
  FormLayout,
  InlineStack,
  Modal,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState } from "react";

import type { BoxPreset, DefaultBox } from "~/settings/settings";
import { WEIGHT_UNIT_OPTIONS } from "~/settings/settings";

import { fieldError, formError } from "./settings-action-data";
import { FormProblem } from "./settings-form";
import { useGuardedFetcher } from "./settings-guarded-fetcher";

const FIELDS = [
  "name",
  "length",
  "width",
  "height",
  "dimensionUnit",
  "tareWeight",
  "maxWeight",
  "weightUnit",
  "isDefault",
];

type Draft = Record<
  "name" | "length" | "width" | "height" | "dimensionUnit" | "tareWeight" | "maxWeight" | "weightUnit",
  string
> & {
  isDefault: boolean;
};

const EMPTY: Draft = {
  name: "",
  length: "",
  width: "",
  height: "",
  dimensionUnit: "in",
  tareWeight: "0",
  maxWeight: "",
  weightUnit: "lb",
  isDefault: false,
};

function toDraft(preset: BoxPreset): Draft {
  return {
    name: preset.name,
    length: String(preset.length),
    width: String(preset.width),
    height: String(preset.height),
    dimensionUnit: preset.dimensionUnit,
    tareWeight: String(preset.tareWeight),
    maxWeight: String(preset.maxWeight),
    weightUnit: preset.weightUnit,
    isDefault: preset.isDefault,
  };
}

export function describeBox(box: DefaultBox): string {
  return `${box.length} × ${box.width} × ${box.height} ${box.dimensionUnit} · empty ${box.tareWeight} ${box.weightUnit} · up to ${box.maxWeight} ${box.weightUnit}`;
}

type Props = { presets: BoxPreset[]; fallbackBox: DefaultBox };

export function SettingsBoxPresetsCard({ presets, fallbackBox }: Props) {
  // null: closed; "new": adding; otherwise the preset being edited.
  const [editing, setEditing] = useState<BoxPreset | "new" | null>(null);
  const [deleting, setDeleting] = useState<BoxPreset | null>(null);
  const makeDefault = useGuardedFetcher();
  const problem = formError(makeDefault.data, []);

  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Your boxes
          </Text>
          <Button onClick={() => setEditing("new")}>Add box</Button>
        </InlineStack>
        <FormProblem problem={problem} />
        {presets.length === 0 ? (
          <BlockStack gap="200">
            <Text as="p">No boxes yet. Labels are packed into the built-in box: {describeBox(fallbackBox)}.</Text>
            <Text as="p" tone="subdued">
              Add the boxes you ship in; the first one becomes the default for new labels.
            </Text>
          </BlockStack>
        ) : (
          <BlockStack gap="300">
            {presets.map((preset, index) => (
              <BlockStack gap="300" key={preset.id}>
                {index > 0 ? <Divider /> : null}
                <InlineStack align="space-between" blockAlign="center" gap="200">
                  <BlockStack gap="100">
                    {/* align="start": an InlineStack inherits its parent's space-between otherwise. */}
                    <InlineStack gap="200" align="start" blockAlign="center">
                      <Text as="h3" variant="headingSm">
                        {preset.name}
                      </Text>
                      {preset.isDefault ? <Badge tone="success">Default</Badge> : null}
                    </InlineStack>
                    <Text as="p" tone="subdued">
                      {describeBox(preset)}
                    </Text>
                  </BlockStack>
                  <InlineStack gap="200">
                    {preset.isDefault ? null : (
                      <Button
                        onClick={() => makeDefault.submit({ intent: "makeDefaultBox", id: preset.id })}
                        loading={makeDefault.busy}
                        disabled={makeDefault.busy}
                        // Starts with the visible text, so voice control users can say what they see.
                        accessibilityLabel={`Make default: ${preset.name}`}
                      >
                        Make default
                      </Button>
                    )}
                    <Button onClick={() => setEditing(preset)} accessibilityLabel={`Edit ${preset.name}`}>
                      Edit
                    </Button>
                    <Button
                      tone="critical"
                      onClick={() => setDeleting(preset)}
                      accessibilityLabel={`Delete ${preset.name}`}
                    >
                      Delete
                    </Button>
                  </InlineStack>
                </InlineStack>
              </BlockStack>
            ))}
          </BlockStack>
        )}
      </BlockStack>
      {editing ? (
        <BoxPresetModal
          preset={editing === "new" ? null : editing}
          isFirst={presets.length === 0}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? <DeleteBoxModal preset={deleting} onClose={() => setDeleting(null)} /> : null}
    </Card>
  );
}

function BoxPresetModal({
  preset,
  isFirst,
  onClose,
}: {
  preset: BoxPreset | null;
  isFirst: boolean;
  onClose: () => void;
}) {
  const { submit, busy, data } = useGuardedFetcher();
  const [draft, setDraft] = useState<Draft>(preset ? toDraft(preset) : { ...EMPTY, isDefault: isFirst });
  const set = (field: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  // Close once the save went through; errors keep the modal open next to their fields.
  useEffect(() => {
    if (!busy && data && "ok" in data) onClose();
  }, [busy, data, onClose]);

  const save = () =>
    submit({
      intent: preset ? "updateBox" : "createBox",
      ...(preset ? { id: preset.id } : {}),
      ...draft,
      isDefault: String(draft.isDefault),
    });
  const problem = formError(data, FIELDS);
  const error = (path: string) => fieldError(data, path);
  const field = (name: Exclude<keyof Draft, "isDefault">) => ({
    value: draft[name],
    onChange: set(name),
    error: error(name),
  });
  const size = (name: "length" | "width" | "height" | "tareWeight" | "maxWeight") => ({
    type: "number" as const,
    min: 0,
    autoComplete: "off",
    ...field(name),
  });

  return (
    <Modal
      open
      onClose={onClose}
      title={preset ? `Edit ${preset.name}` : "Add a box"}
      primaryAction={{ content: "Save box", onAction: save, loading: busy, disabled: busy }}
      secondaryActions={[{ content: "Cancel", onAction: onClose, disabled: busy }]}
    >
      <Modal.Section>
        {/* Polaris Form adds a hidden submit button: Enter in a field saves, like the modal's button. */}
        <Form onSubmit={save}>
          <FormLayout>
            <FormProblem problem={problem} />
            <TextField label="Name" {...field("name")} autoComplete="off" />
            <FormLayout.Group condensed>
              <TextField label="Length" {...size("length")} />
              <TextField label="Width" {...size("width")} />
              <TextField label="Height" {...size("height")} />
              <Select
                label="Unit"
                options={[
                  { label: "in", value: "in" },
                  { label: "cm", value: "cm" },
                ]}
                {...field("dimensionUnit")}
              />
            </FormLayout.Group>
            <FormLayout.Group condensed>
              <TextField label="Empty weight" {...size("tareWeight")} helpText="Added to every box's weight." />
              <TextField
                label="Weight limit"
                {...size("maxWeight")}
                helpText="Packed box, box included. Heavier orders use several boxes."
              />
              <Select label="Weight unit" options={WEIGHT_UNIT_OPTIONS} {...field("weightUnit")} />
            </FormLayout.Group>
            <Checkbox
              label="Default box for new labels"
              checked={draft.isDefault}
              disabled={isFirst || Boolean(preset?.isDefault)}
              helpText={
                isFirst
                  ? "Your first box is the default."
                  : preset?.isDefault
                    ? "To change the default, make another box the default."
                    : undefined
              }
              onChange={(checked) => setDraft((d) => ({ ...d, isDefault: checked }))}
              error={error("isDefault")}
            />
          </FormLayout>
        </Form>
      </Modal.Section>
    </Modal>
  );
}

function DeleteBoxModal({ preset, onClose }: { preset: BoxPreset; onClose: () => void }) {
  const { submit, busy, data } = useGuardedFetcher();
  useEffect(() => {
    if (!busy && data && "ok" in data) onClose();
  }, [busy, data, onClose]);
  const problem = formError(data, []);
  return (
    <Modal
      open
      onClose={onClose}
      title={`Delete ${preset.name}?`}
      primaryAction={{
        content: "Delete box",
        destructive: true,
        loading: busy,
        disabled: busy,
        onAction: () => submit({ intent: "deleteBox", id: preset.id }),
      }}
      secondaryActions={[{ content: "Cancel", onAction: onClose, disabled: busy }]}
    >
      <Modal.Section>
        <BlockStack gap="200">
          <FormProblem problem={problem} />
          <Text as="p">
            Labels already created keep their boxes.
            {preset.isDefault ? " Another box becomes the default; with none left, the built-in box is used." : ""}
          </Text>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
