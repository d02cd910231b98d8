import { Banner, BlockStack, Button, InlineStack, List, Text } from "@shopify/polaris";

import type { ProductMissingCustoms } from "~/bulk/missing-customs";

import { plural } from "./bulk-run-text";

// Bulk review: the products the run ships abroad without an HS code or a country of origin in
// Shopify, each once, with a link to fix it for good instead of on every order.

const FIELD_TEXT = { hs_code: "HS code", country_of_origin: "country of origin" } as const;

export function describeMissing(product: ProductMissingCustoms): string {
  return `No ${product.missing.map((f) => FIELD_TEXT[f]).join(" or ")} in Shopify`;
}

export function MissingCustomsList({ products }: { products: readonly ProductMissingCustoms[] }) {
  if (products.length === 0) return null;
  return (
    <Banner
      tone="warning"
      title={`${plural(products.length, "product")} shipped abroad ${products.length === 1 ? "lacks" : "lack"} customs data`}
    >
      <BlockStack gap="200">
        <Text as="p">
          Fix each once: on the order page, &quot;Save to product&quot; writes the HS code and country of origin to the
          product, so the next orders of it are prefilled.
        </Text>
        <List>
          {products.map((product) => (
            <List.Item key={product.title}>
              <InlineStack gap="200" blockAlign="center">
                <Text as="span" fontWeight="semibold">
                  {product.title}
                </Text>
                <Text as="span" tone="subdued">
                  {`${describeMissing(product)} · ${product.orderNames.join(", ")}`}
                </Text>
                <Button
                  variant="plain"
                  url={product.fix.url}
                  accessibilityLabel={`Fix the customs data of ${product.title}`}
                >
                  {product.fix.kind === "order" ? `Fix on order ${product.fix.orderName}` : "Fix in Shopify"}
                </Button>
              </InlineStack>
            </List.Item>
          ))}
        </List>
      </BlockStack>
    </Banner>
  );
}
