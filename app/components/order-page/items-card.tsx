import { BlockStack, Box, Card, InlineStack, Text, TextField } from "@shopify/polaris";
import type { Dispatch, SetStateAction } from "react";

import type { FulfillmentOrderSection } from "~/routes/app.orders.$orderId/order-label-page.server";

// What goes in this label: each line of the shipment, how many of it, and how many are left.

export function ItemsCard({
  lines,
  quantities,
  setQuantities,
  locked,
}: {
  lines: FulfillmentOrderSection["lines"];
  quantities: Record<string, number>;
  setQuantities: Dispatch<SetStateAction<Record<string, number>>>;
  locked: boolean;
}) {
  const chosen = lines.filter((line) => (quantities[line.id] ?? 0) > 0);
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Items in this label
        </Text>
        {lines.map((line) => (
          <InlineStack key={line.id} align="space-between" blockAlign="center" gap="300">
            <Box minWidth="50%">
              <Text as="p">
                {line.title}
                {line.variantTitle ? ` – ${line.variantTitle}` : ""}
              </Text>
              <Text as="p" tone="subdued" variant="bodySm">
                {line.sku ? `SKU ${line.sku} · ` : ""}
                {line.remaining} of {line.total} left to ship
              </Text>
            </Box>
            <div style={{ width: 120 }}>
              <TextField
                label={`Quantity of ${line.title}`}
                labelHidden
                type="number"
                min={0}
                max={line.remaining}
                value={String(quantities[line.id] ?? 0)}
                onChange={(v) =>
                  setQuantities((q) => ({
                    ...q,
                    [line.id]: Math.max(0, Math.min(line.remaining, Math.floor(Number(v) || 0))),
                  }))
                }
                autoComplete="off"
                suffix={`/ ${line.remaining}`}
                readOnly={locked}
              />
            </div>
          </InlineStack>
        ))}
        {chosen.length === 0 ? (
          <Text as="p" tone="critical">
            Choose at least one item to ship.
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}
