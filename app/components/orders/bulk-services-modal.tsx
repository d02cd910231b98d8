import { BlockStack, Modal, Select, Text } from "@shopify/polaris";
import { useState } from "react";

import type { BulkChoice, BulkPick } from "~/bulk/bulk-choice";
import { describeService, SERVICES } from "~/shipping/services";

// "Create labels: choose services…" on the Orders screen: the run's override of the shop's
// automatic-draft rules, one pick for domestic shipments and one for international ones.

const PICKS = [
  { label: "The cheapest rate", value: "cheapest" },
  { label: "The fastest rate", value: "fastest" },
];

const optionsFor = (side: "domestic" | "international") => [
  ...PICKS,
  ...SERVICES.filter((s) => (side === "domestic" ? s.scope === "domestic" : s.scope !== "domestic")).map((s) => ({
    label: s.scope === "ca_mx" ? `${describeService(s)} (Canada and Mexico only)` : describeService(s),
    value: s.serviceCode,
  })),
];
const DOMESTIC_OPTIONS = optionsFor("domestic");
const FALLBACK = "Where a named service is not offered for a shipment, its cheapest rate is drafted instead.";
const INTERNATIONAL_OPTIONS = optionsFor("international");

function toPick(value: string): BulkPick {
  return value === "cheapest" || value === "fastest" ? { mode: value } : { mode: "service", serviceCode: value };
}

export type BulkServicesModalProps = {
  open: boolean;
  /** How many orders the run takes ("All" past the page). */
  selection: string;
  onClose: () => void;
  onCreate: (choice: BulkChoice) => void;
};

export function BulkServicesModal({ open, selection, onClose, onCreate }: BulkServicesModalProps) {
  const [domestic, setDomestic] = useState("cheapest");
  const [international, setInternational] = useState("cheapest");
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Choose services for these labels"
      primaryAction={{
        content: "Create labels",
        onAction: () =>
          onCreate({ mode: "destination", domestic: toPick(domestic), international: toPick(international) }),
      }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="400">
          <Text as="p">
            For {selection}, instead of your automatic draft rules. Rates are checked and drafted first; nothing is
            bought until you confirm the total.
          </Text>
          <Select
            label="Domestic shipments"
            options={DOMESTIC_OPTIONS}
            value={domestic}
            onChange={setDomestic}
            helpText={FALLBACK}
          />
          <Select
            label="International shipments"
            options={INTERNATIONAL_OPTIONS}
            value={international}
            onChange={setInternational}
            helpText={FALLBACK}
          />
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
