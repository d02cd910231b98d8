import { BlockStack, Box, Card, InlineGrid, Link, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

import type { AttentionCounts } from "~/routes/app._index/home.server";
import { labelListUrl } from "~/routes/app.labels/label-list";

// "Needs attention now": one tile per kind of work waiting, each a link to the list that shows it
// (the Orders list's tabs, the Labels list's filters).

type Tile = { title: string; count: string; url: string; hint: string };

function describeTiles(attention: AttentionCounts): Tile[] {
  const needsLabel = attention.needsLabel;
  return [
    {
      title: "Needs a label",
      count: needsLabel ? `${needsLabel.count.toLocaleString("en-US")}${needsLabel.atLeast ? "+" : ""}` : "—",
      url: "/app/orders?tab=needs_label",
      hint: needsLabel ? "Orders awaiting shipment without a label" : "Shopify did not answer: open the list",
    },
    {
      title: "Drafts to buy",
      count: String(attention.drafts),
      url: "/app/orders?tab=drafts",
      hint: "Orders with a draft label ready to buy",
    },
    {
      title: "Flagged",
      count: String(attention.problems),
      url: "/app/orders?tab=problems",
      hint: "Orders changed or held after purchase, or not drafted automatically",
    },
    {
      title: "On hold",
      count: String(attention.onHold),
      // Its own tab: the Drafts tab leaves held drafts out (they cannot be bought meanwhile).
      url: "/app/orders?tab=on_hold",
      hint: "Drafts waiting for Shopify to release a hold",
    },
    {
      title: "Tracking exceptions",
      count: String(attention.trackingExceptions),
      url: labelListUrl("tracking_exception"),
      hint: "Parcels the carrier reports delayed",
    },
    {
      title: "Tracking not sent",
      count: String(attention.failedWriteBacks),
      url: labelListUrl("write_back_failed"),
      hint: "Bought labels whose tracking did not reach Shopify",
    },
  ];
}

export function HomeAttention({ attention, children }: { attention: AttentionCounts; children?: ReactNode }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingLg">
          Needs attention now
        </Text>
        <InlineGrid columns={{ xs: 2, sm: 3, lg: 6 }} gap="300">
          {describeTiles(attention).map((tile) => (
            <Box key={tile.title} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
              <BlockStack gap="100">
                <Link url={tile.url} removeUnderline>
                  {tile.title}
                </Link>
                <Text as="p" variant="heading2xl">
                  {tile.count}
                </Text>
                <Text as="p" variant="bodySm" tone="subdued">
                  {tile.hint}
                </Text>
              </BlockStack>
            </Box>
          ))}
        </InlineGrid>
        {children}
      </BlockStack>
    </Card>
  );
}
