import { Text, TextField } from "@shopify/polaris";
import { useState } from "react";

import { fieldError, formError } from "./settings-action-data";
import { SettingsFormCard } from "./settings-form";
import { useGuardedFetcher } from "./settings-guarded-fetcher";

type Props = { shipToRetentionDays: number };

/** How long a finished label keeps its recipient's details (docs/protected-customer-data.md). */
export function SettingsRetentionCard({ shipToRetentionDays }: Props) {
  const { submit, busy, data } = useGuardedFetcher();
  const [days, setDays] = useState(String(shipToRetentionDays));

  // The range is checked by the server, whose message sits next to the field like every other
  // setting's; the browser's own bubble would say it differently and vanish.
  return (
    <SettingsFormCard
      onSubmit={() => submit({ intent: "saveRetention", shipToRetentionDays: days })}
      problem={formError(data, ["shipToRetentionDays"])}
      busy={busy}
      saveLabel="Save retention period"
    >
      <TextField
        label="Keep ship-to details for"
        type="number"
        suffix="days"
        autoComplete="off"
        value={days}
        onChange={setDays}
        error={fieldError(data, "shipToRetentionDays")}
        helpText="Counted from when a label is delivered or voided. Then the recipient's name, address, phone and e-mail are removed from this app; amounts, carriers and tracking numbers stay. Drafts and labels on their way are never affected."
      />
      <Text as="p" tone="subdued">
        Your orders in Shopify keep their addresses: this only concerns the copy this app keeps with each label.
      </Text>
    </SettingsFormCard>
  );
}
