import { Banner, BlockStack, Box, Button, InlineStack, Link, Text } from "@shopify/polaris";
import { useFetcher } from "react-router";

import type { VoidLabelsAnswer } from "~/http/void-labels.server";
import { BOUGHT_WHILE_HELD_TITLE } from "~/labels/label-state";
import type { HeldPurchase, HomeScreen } from "~/routes/app._index/home.server";
import { labelListUrl } from "~/routes/app.labels/label-list";
import { formatMinorUnits } from "~/utils/money";

// "Needs attention now" on the home page: each label bought for a shipment Shopify held or
// cancelled in the instant of the purchase, with its void in one click (the Labels list's own
// void, so the same spending check and the one use case). The button names the refund.

type VoidAnswer = VoidLabelsAnswer | { error: { message: string } };

function HeldLabelRow({ label }: { label: HeldPurchase }) {
  const fetcher = useFetcher<VoidAnswer>();
  const refund = formatMinorUnits(label.refundCents, label.currency);
  const answer = fetcher.data;
  const refused =
    answer && "error" in answer
      ? answer.error.message
      : answer && "results" in answer
        ? (answer.results.find((r) => r.outcome === "refused")?.message ?? null)
        : null;
  return (
    <Box padding="300" borderWidth="025" borderColor="border-critical" borderRadius="200">
      <BlockStack gap="200">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <BlockStack gap="050">
            {label.orderId ? (
              <Link url={`/app/orders/${label.orderId}`} removeUnderline>
                {`Order ${label.orderName}`}
              </Link>
            ) : (
              <Text as="span">{`Order ${label.orderName}`}</Text>
            )}
            <Text as="p" variant="bodySm" tone="subdued">
              {`Charged ${refund}. Shopify will not take its tracking while the shipment is held.`}
            </Text>
          </BlockStack>
          <Button
            tone="critical"
            loading={fetcher.state !== "idle"}
            onClick={() =>
              fetcher.submit(
                { intent: "void", labelIds: JSON.stringify([label.labelId]) },
                { method: "post", action: "/app/labels" },
              )
            }
          >
            {`Void label: refund ${refund} to your shipping balance`}
          </Button>
        </InlineStack>
        {refused ? (
          <Text as="p" tone="critical">
            {`The label was not voided: ${refused}`}
          </Text>
        ) : null}
      </BlockStack>
    </Box>
  );
}

export function HomeHeldLabels({ held }: { held: HomeScreen["heldPurchases"] }) {
  if (held.count === 0) return null;
  return (
    <BlockStack gap="200">
      <Banner tone="critical" title={`${BOUGHT_WHILE_HELD_TITLE}: ${held.count}`}>
        <p>
          Shopify held these shipments (or their orders were cancelled) in the moment their labels were bought. Void a
          label to get its charge back once the carrier confirms, usually within minutes, or release the hold in Shopify
          and its tracking is sent.
        </p>
      </Banner>
      {held.labels.map((label) => (
        <HeldLabelRow key={label.labelId} label={label} />
      ))}
      {held.count > held.labels.length ? (
        <Link url={labelListUrl("bought_while_held")}>{`See all ${held.count} on the Labels list`}</Link>
      ) : null}
    </BlockStack>
  );
}
