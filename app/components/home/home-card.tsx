import { BlockStack, Card, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

/** A card of the home's "What happened": a heading, a line saying what it counts, its content. */
export function HomeCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h3" variant="headingMd">
          {title}
        </Text>
        {description ? (
          <Text as="p" variant="bodySm" tone="subdued">
            {description}
          </Text>
        ) : null}
        {children}
      </BlockStack>
    </Card>
  );
}
