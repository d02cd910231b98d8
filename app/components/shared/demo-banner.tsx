import { Box, InlineStack, Text } from "@shopify/polaris";

/** A slim strip on every page of the demo: nothing here touches a real store or real money. */
export function DemoBanner() {
  return (
    <Box background="bg-fill-caution-secondary" paddingBlock="100" paddingInline="400">
      <InlineStack align="center" gap="200">
        <Text as="p" variant="bodySm">
          <Text as="span" variant="bodySm" fontWeight="semibold">
            Demo store.
          </Text>{" "}
          Shopify and the shipping service are emulated on this computer: no real orders, labels or charges.
        </Text>
      </InlineStack>
    </Box>
  );
}
