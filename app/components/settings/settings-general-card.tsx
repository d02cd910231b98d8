import { Banner, Checkbox, ChoiceList, FormLayout, Select, TextField } from "@shopify/polaris";
import { useState } from "react";

import type { ShipFromOption } from "~/routes/app.settings/settings-screen.server";
import { PACKING_SLIP_NOTE_MAX } from "~/settings/settings";
import type { SettingsView } from "~/settings/settings.server";
import { formatMinorUnits } from "~/utils/money";

import { fieldError, formError } from "./settings-action-data";
import { SettingsFormCard } from "./settings-form";
import { useGuardedFetcher } from "./settings-guarded-fetcher";

const FIELDS = [
  "labelFormat",
  "labelSize",
  "notifyCustomer",
  "addressValidationPolicy",
  "shipFromLocationGid",
  "packingSlips",
  "packingSlipNote",
  "scanBuysDraft",
  "autoVoidHeldPurchases",
];

type Props = {
  settings: SettingsView;
  locations: ShipFromOption[];
  locationsProblem: string | null;
  validationPriceCents: number;
};

export function SettingsGeneralCard({ settings, locations, locationsProblem, validationPriceCents }: Props) {
  const { submit, busy, data } = useGuardedFetcher();
  const [labelFormat, setLabelFormat] = useState<string>(settings.labelFormat);
  const [labelSize, setLabelSize] = useState<string>(settings.labelSize);
  const [notifyCustomer, setNotifyCustomer] = useState(settings.notifyCustomer);
  const [policy, setPolicy] = useState<string>(settings.addressValidationPolicy);
  const [shipFrom, setShipFrom] = useState(settings.shipFromLocationGid ?? "");
  const [packingSlips, setPackingSlips] = useState<string>(settings.packingSlips);
  const [packingSlipNote, setPackingSlipNote] = useState(settings.packingSlipNote ?? "");
  const [scanBuysDraft, setScanBuysDraft] = useState(settings.scanBuysDraft);
  const [autoVoidHeld, setAutoVoidHeld] = useState(settings.autoVoidHeldPurchases);

  const cost =
    validationPriceCents > 0
      ? `${formatMinorUnits(validationPriceCents, "USD")} per validation with your live key`
      : "Free with a sandbox key (live keys pay $0.05 per validation)";
  // A saved location that is no longer listed stays selectable, so saving other fields keeps it.
  const shipFromOptions = [
    { label: "The fulfillment order's location (default)", value: "" },
    ...locations.map((l) => ({ label: l.address ? `${l.name} — ${l.address}` : l.name, value: l.id })),
    ...(shipFrom && !locations.some((l) => l.id === shipFrom)
      ? [{ label: "A location not listed", value: shipFrom }]
      : []),
  ];
  const problem = formError(data, FIELDS);

  return (
    <SettingsFormCard
      problem={problem}
      busy={busy}
      saveLabel="Save label settings"
      onSubmit={() =>
        submit({
          intent: "saveSettings",
          labelFormat,
          labelSize,
          notifyCustomer: String(notifyCustomer),
          addressValidationPolicy: policy,
          shipFromLocationGid: shipFrom,
          packingSlips,
          packingSlipNote,
          scanBuysDraft: String(scanBuysDraft),
          autoVoidHeldPurchases: String(autoVoidHeld),
        })
      }
    >
      <FormLayout.Group>
        <Select
          label="Label format"
          options={[
            { label: "PDF", value: "pdf" },
            { label: "PNG", value: "png" },
            { label: "ZPL (thermal printers)", value: "zpl" },
          ]}
          value={labelFormat}
          onChange={setLabelFormat}
          error={fieldError(data, "labelFormat")}
        />
        <Select
          label="Label size"
          options={[
            { label: "4 × 6 in", value: "4x6" },
            { label: "4 × 8 in", value: "4x8" },
          ]}
          value={labelSize}
          onChange={setLabelSize}
          error={fieldError(data, "labelSize")}
        />
      </FormLayout.Group>
      {locationsProblem ? (
        <Banner tone="warning">
          <p>{locationsProblem}</p>
        </Banner>
      ) : null}
      <Select
        label="Ship from"
        options={shipFromOptions}
        value={shipFrom}
        onChange={setShipFrom}
        helpText="Used when an order's fulfillment location has no usable address."
        error={fieldError(data, "shipFromLocationGid")}
      />
      <FormLayout.Group>
        <Select
          label="Packing slips"
          options={[
            { label: "Don't print packing slips", value: "off" },
            { label: "After each label", value: "after_each" },
            { label: "All slips after all labels", value: "after_all" },
          ]}
          value={packingSlips}
          onChange={setPackingSlips}
          helpText="Added to the label PDF from the order page, bulk runs and Shopify's print menu."
          error={fieldError(data, "packingSlips")}
        />
        <TextField
          label="Packing slip note"
          value={packingSlipNote}
          onChange={setPackingSlipNote}
          autoComplete="off"
          multiline={2}
          maxLength={PACKING_SLIP_NOTE_MAX}
          showCharacterCount
          placeholder="Thank you for your order!"
          helpText="Printed at the foot of every slip. Optional."
          error={fieldError(data, "packingSlipNote")}
        />
      </FormLayout.Group>
      <Checkbox
        label="Notify the customer when tracking is added"
        helpText="Shopify sends its shipping confirmation e-mail with the tracking link."
        checked={notifyCustomer}
        onChange={setNotifyCustomer}
        error={fieldError(data, "notifyCustomer")}
      />
      <Checkbox
        label="Scanning an order on Home buys its draft label and prints it"
        helpText="Only when the order has one draft label and nothing blocks it; otherwise the order opens. Each label bought this way is charged without a confirmation."
        checked={scanBuysDraft}
        onChange={setScanBuysDraft}
        error={fieldError(data, "scanBuysDraft")}
      />
      <Checkbox
        label="Void a label bought for a held order on its own"
        helpText="When Shopify holds a shipment or the order is cancelled in the moment its label is bought, the label is voided at once and its charge goes back to your shipping balance once the carrier confirms. Off: you are told and void it in one click."
        checked={autoVoidHeld}
        onChange={setAutoVoidHeld}
        error={fieldError(data, "autoVoidHeldPurchases")}
      />
      <ChoiceList
        title="Validate ship-to addresses"
        choices={[
          { label: "Never", value: "never", helpText: "No checks and no charges." },
          {
            label: "On request",
            value: "on_request",
            helpText: `A "Validate address" button on the label page. ${cost}.`,
          },
          {
            label: "Automatically for new addresses",
            value: "auto_new",
            helpText: `Each new address is checked once, when its first label is prepared; an address already checked is not charged again. ${cost}.`,
          },
        ]}
        selected={[policy]}
        onChange={(selected) => setPolicy(selected[0] ?? policy)}
        error={fieldError(data, "addressValidationPolicy")}
      />
    </SettingsFormCard>
  );
}
