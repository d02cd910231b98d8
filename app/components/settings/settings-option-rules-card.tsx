import { Text, TextField } from "@shopify/polaris";
import { useState } from "react";

import { formatUsdCents, joinTagList, type OptionRules } from "~/settings/option-rules";

import { fieldError, formError } from "./settings-action-data";
import { SettingsFormCard } from "./settings-form";
import { useGuardedFetcher } from "./settings-guarded-fetcher";

type Props = { optionRules: OptionRules };

type TagListName = "adultSignatureTags" | "adultSignatureProductTypes" | "lithiumTags";

// The rules that match products by tag or type: comma-separated lists, as Shopify writes tags.
const TAG_FIELDS: readonly { name: TagListName; label: string; placeholder: string; helpText?: string }[] = [
  {
    name: "adultSignatureTags",
    label: "Adult signature for products tagged",
    placeholder: "wine, 21+",
    helpText: "Separate tags with commas, as in Shopify.",
  },
  { name: "adultSignatureProductTypes", label: "Adult signature for product types", placeholder: "Spirits" },
  {
    name: "lithiumTags",
    label: "Lithium batteries for products tagged",
    placeholder: "lithium-battery",
    helpText:
      "Shipments with these products go by ground services only (USPS Ground Advantage, UPS Ground, FedEx Ground).",
  },
];

/** Insurance, adult signature and lithium batteries by rule: every new label starts with them. */
export function SettingsOptionRulesCard({ optionRules }: Props) {
  const { submit, busy, data } = useGuardedFetcher();
  const [insureAbove, setInsureAbove] = useState(
    optionRules.insureAboveCents === null ? "" : formatUsdCents(optionRules.insureAboveCents),
  );
  const [lists, setLists] = useState<Record<TagListName, string>>({
    adultSignatureTags: joinTagList(optionRules.adultSignatureTags),
    adultSignatureProductTypes: joinTagList(optionRules.adultSignatureProductTypes),
    lithiumTags: joinTagList(optionRules.lithiumTags),
  });

  return (
    <SettingsFormCard
      onSubmit={() => submit({ intent: "saveOptionRules", insureAbove, ...lists })}
      problem={formError(data, ["insureAbove", ...TAG_FIELDS.map((f) => f.name)])}
      busy={busy}
      saveLabel="Save option rules"
    >
      <TextField
        label="Insure shipments worth more than"
        type="number"
        prefix="$"
        autoComplete="off"
        value={insureAbove}
        onChange={setInsureAbove}
        error={fieldError(data, "insureAbove")}
        helpText="Worth: what the customer paid for the items. Insured for that amount, up to $5,000; insurance costs 1% of it, at least $1.00. Leave empty to insure only when you choose to."
      />
      {TAG_FIELDS.map((field) => (
        <TextField
          key={field.name}
          label={field.label}
          autoComplete="off"
          value={lists[field.name]}
          onChange={(value) => setLists((current) => ({ ...current, [field.name]: value }))}
          error={fieldError(data, field.name)}
          placeholder={field.placeholder}
          helpText={field.helpText}
        />
      ))}
      <Text as="p" tone="subdued">
        New labels, automatic drafts and bulk runs start with these options; you can still change them on an
        order&apos;s label page. Rates include what each option costs.
      </Text>
    </SettingsFormCard>
  );
}
