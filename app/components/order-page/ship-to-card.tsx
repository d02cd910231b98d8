import { Banner, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import type { Dispatch, SetStateAction } from "react";

import type { ValidatedAddressView } from "~/routes/app.orders.$orderId/order-label-page.server";
import type { KnownPreflightProblem, LabelRequestInput } from "~/shipping/preflight";
import { formatMinorUnits } from "~/utils/money";

import type { AnswerFetcher } from "./action-answer";
import { AddressFields } from "./address-fields";

// Where the label goes: the address fields and, for a US address, the carrier's check (billed
// once per address), whose corrected address the merchant may take.

export function ShipToCard({
  fulfillmentOrderId,
  request,
  setRequest,
  set,
  problems,
  locked,
  validation,
  validated,
  validatePrice,
}: {
  fulfillmentOrderId: string;
  request: LabelRequestInput;
  setRequest: Dispatch<SetStateAction<LabelRequestInput>>;
  set: (path: string, value: unknown) => void;
  problems: KnownPreflightProblem[];
  locked: boolean;
  /** The check's fetcher: the form's problems read its answer too. */
  validation: AnswerFetcher;
  /** This check's answer, or the one stored for the address. */
  validated: ValidatedAddressView | null | undefined;
  /** What a check costs, as the button says it ("free" or an amount). */
  validatePrice: string;
}) {
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Ship to
          </Text>
          {!locked && (request.to_address?.country === "US" || !request.to_address?.country) ? (
            <validation.Form method="post">
              <input type="hidden" name="intent" value="validate-address" />
              <input type="hidden" name="fulfillmentOrderId" value={fulfillmentOrderId} />
              <input type="hidden" name="address" value={JSON.stringify(request.to_address ?? {})} />
              <Button submit loading={validation.state !== "idle"} disabled={validation.state !== "idle"}>
                {`Validate address (${validatePrice})`}
              </Button>
            </validation.Form>
          ) : null}
        </InlineStack>
        <AddressFields
          prefix="to_address"
          address={request.to_address}
          problems={problems}
          onChange={(field, value) => set(`to_address.${field}`, value)}
          readOnly={locked}
        />
        {validation.data?.error ? (
          <Banner tone="critical">
            <p>{validation.data.error.message}</p>
          </Banner>
        ) : null}
        {validated ? (
          <Banner
            tone={validated.result.dpv.deliverable ? "success" : "warning"}
            title={validated.result.dpv.deliverable ? "Deliverable address" : "The carrier may not deliver here"}
          >
            <BlockStack gap="200">
              <Text as="p">
                {validated.result.address.street1}
                {validated.result.address.street2 ? `, ${validated.result.address.street2}` : ""},{" "}
                {validated.result.address.city}, {validated.result.address.state} {validated.result.address.zip}
                {validated.result.zip4 ? `-${validated.result.zip4}` : ""}
              </Text>
              <Text as="p" tone="subdued">
                {validated.result.residential ? "Residential" : "Commercial"} ·{" "}
                {validated.result.zip4 ? `ZIP+4 ${validated.result.zip4}` : "no ZIP+4"} ·{" "}
                {validated.reused
                  ? "checked before, not charged again"
                  : `charged ${formatMinorUnits(validated.billedCents)}`}
              </Text>
              {locked ? null : (
                <div>
                  <Button
                    onClick={() =>
                      setRequest((r) => ({
                        ...r,
                        to_address: {
                          ...r.to_address,
                          street1: validated.result.address.street1,
                          street2: validated.result.address.street2 ?? null,
                          city: validated.result.address.city,
                          state: validated.result.address.state,
                          zip: validated.result.zip4
                            ? `${validated.result.address.zip.slice(0, 5)}-${validated.result.zip4}`
                            : validated.result.address.zip,
                          residential: validated.result.residential,
                        },
                      }))
                    }
                  >
                    Use this address
                  </Button>
                </div>
              )}
            </BlockStack>
          </Banner>
        ) : null}
      </BlockStack>
    </Card>
  );
}
