import { Banner, BlockStack, Button, Card, Form, FormLayout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";

import { formatUsdCents, joinTagList, type OptionRules } from "~/settings/option-rules";

import { fieldError, formError } from "./settings-action-data";
import { useGuardedFetcher } from "./settings-guarded-fetcher";

type Props = { optionRules: OptionRules };

const FIELDS = ["insureAbove", "adultSignatureTags", "adultSignatureProductTypes", "lithiumTags"];

/** Insurance, adult signature and lithium batteries by rule: every new label starts with them. */
export function SettingsOptionRulesCard({ optionRules }: Props) {
  const { submit, busy, data } = useGuardedFetcher();
  const [insureAbove, setInsureAbove] = useState(
    optionRules.insureAboveCents === null ? "" : formatUsdCents(optionRules.insureAboveCents),
  );
  const [adultSignatureTags, setAdultSignatureTags] = useState(joinTagList(optionRules.adultSignatureTags));
  const [adultSignatureProductTypes, setAdultSignatureProductTypes] = useState(
    joinTagList(optionRules.adultSignatureProductTypes),
  );
  const [lithiumTags, setLithiumTags] = useState(joinTagList(optionRules.lithiumTags));
  const problem = formError(data, FIELDS);

  return (
    <Card>
      <Form
        onSubmit={() =>
          submit({ intent: "saveOptionRules", insureAbove, adultSignatureTags, adultSignatureProductTypes, lithiumTags })
        }
      >
        <BlockStack gap="400">
          {problem ? (
            <Banner tone="critical">
              <p>{problem}</p>
            </Banner>
          ) : null}
          <FormLayout>
            <TextField
              label="Insure shipments whose items sell for more than"
              type="number"
              prefix="$"
              autoComplete="off"
              value={insureAbove}
              onChange={setInsureAbove}
              error={fieldError(data, "insureAbove")}
              helpText="Insured for what the items sell for, up to $5,000; insurance costs 1% of the amount, at least $1.00. Leave empty to insure only when you choose to."
            />
            <TextField
              label="Adult signature for products tagged"
              autoComplete="off"
              value={adultSignatureTags}
              onChange={setAdultSignatureTags}
              error={fieldError(data, "adultSignatureTags")}
              placeholder="wine, 21+"
              helpText="Separate tags with commas, as in Shopify."
            />
            <TextField
              label="Adult signature for product types"
              autoComplete="off"
              value={adultSignatureProductTypes}
              onChange={setAdultSignatureProductTypes}
              error={fieldError(data, "adultSignatureProductTypes")}
              placeholder="Spirits"
            />
            <TextField
              label="Lithium batteries for products tagged"
              autoComplete="off"
              value={lithiumTags}
              onChange={setLithiumTags}
              error={fieldError(data, "lithiumTags")}
              placeholder="lithium-battery"
              helpText="Shipments with these products go by ground services only (USPS Ground Advantage, UPS Ground, FedEx Ground)."
            />
            <Text as="p" tone="subdued">
              New labels, automatic drafts and bulk runs start with these options; you can still change them on an
              order&apos;s label page. Rates include what each option costs.
            </Text>
            <Button submit variant="primary" loading={busy} disabled={busy}>
              Save option rules
            </Button>
          </FormLayout>
        </BlockStack>
      </Form>
    </Card>
  );
}
