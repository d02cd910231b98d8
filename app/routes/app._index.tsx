import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";

import { reportError } from "../http/error-response.server";
import { requireShopContext } from "../http/shop-context.server";
import { getShopOverview } from "../shopify/shop-overview.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  // No shipping client here: the home page must render before the merchant has entered a key.
  const { shop, admin } = await requireShopContext(request);
  const overview = await getShopOverview(admin);
  // The home page still renders when Shopify fails: the banner quotes a reference from the log.
  if (!overview.ok) {
    const { message } = reportError(overview.error, { level: "warn" });
    return { shop, name: null, currencyCode: null, problem: message };
  }
  return {
    shop: overview.value.domain,
    name: overview.value.name,
    currencyCode: overview.value.currencyCode,
    problem: null,
  };
};

export default function Index() {
  const { shop, name, currencyCode, problem } = useLoaderData<typeof loader>();
  return (
    <Page title="Ship orders">
      <Layout>
        <Layout.Section>
          {problem ? (
            <Banner tone="warning" title="Connected, but the store details did not load">
              <p>{problem}</p>
            </Banner>
          ) : null}
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Connected to {name ?? shop}
              </Text>
              <Text as="p" tone="subdued">
                {shop}
                {currencyCode ? ` · store currency ${currencyCode}` : ""}
              </Text>
              <Text as="p">
                Shipping labels for your orders are created, bought and printed from here, and tracking numbers are
                written back to each fulfillment.
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
