import { Badge, BlockStack, Box, Button, InlineStack, Text } from "@shopify/polaris";

import { rankRates } from "~/shipments/rate-ranking";
import type { Rate } from "~/shipping/schemas";
import { formatAmount } from "~/utils/money";

// The rates of a shipment as a merchant compares them: cheapest first, the cheapest and the
// fastest marked, the carrier written once, days and the expected day of arrival; beside them,
// what the customer chose at checkout.

export function RateList({
  rates,
  customerChose,
  busyRateId,
  disabled,
  onChoose,
}: {
  rates: readonly Rate[];
  /** The shipping method the customer picked at checkout ("Standard Shipping"); null when unknown. */
  customerChose: string | null;
  /** The rate whose draft is being made. */
  busyRateId: string | null;
  disabled: boolean;
  onChoose: (rate: Rate) => void;
}) {
  return (
    <BlockStack gap="200">
      {customerChose ? (
        <Text as="p" tone="subdued">
          The customer chose <Text as="span" fontWeight="semibold">{customerChose}</Text> at checkout.
        </Text>
      ) : null}
      {rankRates(rates).map(({ rate, name, delivery, cheapest, fastest }) => {
        const price = formatAmount(rate.amount, rate.currency);
        return (
          <Box key={rate.rate_id} paddingBlock="100" borderBlockEndWidth="025" borderColor="border-secondary">
            <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
              <BlockStack gap="050">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="span" fontWeight="medium">
                    {name}
                  </Text>
                  {cheapest ? <Badge tone="success">Cheapest</Badge> : null}
                  {fastest ? <Badge tone="info">Fastest</Badge> : null}
                </InlineStack>
                {delivery ? (
                  <Text as="span" variant="bodySm" tone="subdued">
                    {delivery}
                  </Text>
                ) : null}
              </BlockStack>
              <InlineStack gap="300" blockAlign="center" wrap={false}>
                <Text as="span" fontWeight="semibold">
                  {price}
                </Text>
                <Button
                  onClick={() => onChoose(rate)}
                  disabled={disabled}
                  loading={busyRateId === rate.rate_id}
                  accessibilityLabel={`Choose ${name} for ${price}`}
                >
                  Choose
                </Button>
              </InlineStack>
            </InlineStack>
          </Box>
        );
      })}
    </BlockStack>
  );
}
