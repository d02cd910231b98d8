import { BlockStack, Button, Card, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import type { Dispatch, SetStateAction } from "react";

import type { OrderLabelPage } from "~/routes/app.orders.$orderId/order-label-page.server";
import { problemsAt } from "~/shipments/label-form";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";

import { fieldId } from "./field-links";
import { LockableSelect } from "./lockable-select";
import { parseNumberField } from "./number-field";
import { fieldError, FieldNotes } from "./problem-list";

// The label's boxes: one is the request's `parcel`, several its `parcels`; each sized by hand or
// from a saved box, with its own preflight notes.

type ParcelInput = NonNullable<LabelRequestInput["parcel"]>;

function boxesOf(request: LabelRequestInput): ParcelInput[] {
  return (request.parcels ?? [request.parcel]).filter((p): p is ParcelInput => p != null);
}

function withBoxes(request: LabelRequestInput, boxes: ParcelInput[]): LabelRequestInput {
  const next = { ...request };
  if (boxes.length === 1) {
    next.parcel = boxes[0] ?? null;
    delete next.parcels;
  } else {
    next.parcels = boxes;
    delete next.parcel;
  }
  return next;
}

export function BoxesCard({
  request,
  setRequest,
  set,
  problems,
  locked,
  boxPresets,
}: {
  request: LabelRequestInput;
  setRequest: Dispatch<SetStateAction<LabelRequestInput>>;
  set: (path: string, value: unknown) => void;
  problems: KnownPreflightProblem[];
  locked: boolean;
  boxPresets: OrderLabelPage["boxPresets"];
}) {
  const boxes = boxesOf(request);
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between">
          <Text as="h2" variant="headingMd">
            Boxes
          </Text>
          {locked ? null : (
            <Button
              onClick={() =>
                setRequest((r) => withBoxes(r, [...boxesOf(r), { ...(boxesOf(r)[0] ?? {}), weight: null }]))
              }
            >
              Add box
            </Button>
          )}
        </InlineStack>
        <FieldNotes problems={problemsAt(problems, "parcels").filter((p) => p.path === "parcels")} />
        {boxes.map((box, index) => {
          const path = request.parcels ? `parcels[${index}]` : "parcel";
          const at = problemsAt(problems, path);
          return (
            <BlockStack key={index} gap="200">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h3" variant="headingSm">
                  Box {index + 1}
                </Text>
                {boxes.length > 1 && !locked ? (
                  <Button
                    variant="plain"
                    tone="critical"
                    onClick={() =>
                      setRequest((r) =>
                        withBoxes(
                          r,
                          boxesOf(r).filter((_, i) => i !== index),
                        ),
                      )
                    }
                  >
                    Remove box
                  </Button>
                ) : null}
              </InlineStack>
              {boxPresets.length > 0 ? (
                <LockableSelect
                  locked={locked}
                  label="Saved box"
                  placeholder="Choose a box"
                  options={boxPresets.map((p) => ({ label: p.name, value: p.id }))}
                  // The preset whose size the box has (the default box is prefilled), else none.
                  value={
                    boxPresets.find(
                      (p) =>
                        p.length === box.length &&
                        p.width === box.width &&
                        p.height === box.height &&
                        p.dimensionUnit === (box.dimension_unit ?? "in"),
                    )?.id ?? ""
                  }
                  onChange={(id) => {
                    const preset = boxPresets.find((p) => p.id === id);
                    if (!preset) return;
                    set(`${path}.length`, preset.length);
                    set(`${path}.width`, preset.width);
                    set(`${path}.height`, preset.height);
                    set(`${path}.dimension_unit`, preset.dimensionUnit);
                  }}
                />
              ) : null}
              {/* Two by two on a phone: four across left Height alone on a second line (issue 40). */}
              <InlineGrid columns={{ xs: 2, sm: 4 }} gap="300">
                {(["weight", "length", "width", "height"] as const).map((field) => (
                  <TextField
                    key={field}
                    id={fieldId(`${path}.${field}`)}
                    readOnly={locked}
                    label={field[0]?.toUpperCase() + field.slice(1)}
                    type="number"
                    value={box[field] == null ? "" : String(box[field])}
                    onChange={(v) => set(`${path}.${field}`, parseNumberField(v))}
                    autoComplete="off"
                    suffix={field === "weight" ? (box.weight_unit ?? "oz") : (box.dimension_unit ?? "in")}
                    error={fieldError(problemsAt(at, `${path}.${field}`))}
                  />
                ))}
              </InlineGrid>
              <FieldNotes problems={at.filter((p) => p.path === path)} />
            </BlockStack>
          );
        })}
      </BlockStack>
    </Card>
  );
}
