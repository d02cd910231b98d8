import { Banner, BlockStack, Box, Button, Layout, Page, Text } from "@shopify/polaris";
import { useState } from "react";
import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import { z } from "zod";

import {
  listOrdersAwaitingShipment,
  ORDER_LIST_TABS,
  readOrderListVersion,
} from "~/routes/app.orders._index/order-list.server";
import { getSettingsView } from "~/settings/settings.server";
import { reportError } from "~/utils/error-report.server";

import { OrderList } from "../../components/orders/order-list";
import { EMPTY_SELECTION, type OrderSelection } from "../../components/orders/order-selection";
import { ConnectShippingCallout } from "../../components/shared/connect-shipping-callout";
import { useRevalidateWhenChanged } from "../../components/shared/use-polling";
import { requireShopContext } from "../../http/shop-context.server";

// Values only an edited URL can hold fall back (no search, the first page) rather than a 500.
const SearchSchema = z.object({
  tab: z.enum(ORDER_LIST_TABS).catch("all"),
  q: z.string().max(40).optional().catch(undefined),
  after: z.string().max(500).optional().catch(undefined),
  before: z.string().max(500).optional().catch(undefined),
});

/** The resource route answering the list's version (app.orders-version.ts). */
const ORDER_LIST_VERSION_URL = "/app/orders-version";
const ORDER_LIST_CHECK_MS = 3000;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  // No shipping client here: the Orders page renders before the merchant has entered a key.
  const { shop, db, admin } = await requireShopContext(request);
  const params = SearchSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  // Read before the page: a label changing while the page is read shows as a newer version at
  // the next check, so the list reloads once more rather than missing it.
  const version = await readOrderListVersion(db, shop);
  const [settings, page] = await Promise.all([
    getSettingsView(db, shop),
    listOrdersAwaitingShipment(
      { db, shop, admin },
      { tab: params.tab, search: params.q, after: params.after, before: params.before },
      { reuseDuringRuns: true },
    ),
  ]);
  const setup = { apiKeyConfigured: settings.apiKey.configured, mode: settings.mode };
  // The page still renders when Shopify fails: the banner quotes a reference from the log.
  if (!page.ok) {
    const { message } = reportError(page.error, { level: "warn" });
    return { setup, problem: message, list: null, version };
  }
  return { setup, problem: null, list: page.value, version };
};

export default function OrdersPage() {
  const { setup, problem, list, version } = useLoaderData<typeof loader>();
  // A draft the worker makes (an order just placed, automatic drafts on) shows without a reload:
  // a cheap check of the app's own labels every few seconds, and the page re-read only on a change.
  useRevalidateWhenChanged(ORDER_LIST_VERSION_URL, version, ORDER_LIST_CHECK_MS);
  // The bulk selection lives here, not in the list: this component stays mounted while the list
  // pages (a navigation to this same route), and through a page that failed to load.
  const [selection, setSelection] = useState<OrderSelection>(EMPTY_SELECTION);
  return (
    <Page title="Orders" subtitle="Orders awaiting shipment: create, buy and print their labels">
      <Layout>
        {!setup.apiKeyConfigured ? (
          <Layout.Section>
            <ConnectShippingCallout />
          </Layout.Section>
        ) : null}
        {/* Above the list, not under it: a list of another length would move it (issue 25). */}
        {setup.apiKeyConfigured && setup.mode === "sandbox" ? (
          <Layout.Section>
            {/* A phone's cards run edge to edge: the note keeps the page's margin. */}
            <Box paddingInline={{ xs: "400", sm: "0" }}>
              <Text as="p" tone="subdued">
                Sandbox mode: labels are free test labels and cannot be shipped.
              </Text>
            </Box>
          </Layout.Section>
        ) : null}
        {problem ? (
          <Layout.Section>
            <Banner tone="warning" title="The orders did not load">
              <BlockStack gap="200">
                <p>{problem}</p>
                <div>
                  <Button url="/app/orders">Try again</Button>
                </div>
              </BlockStack>
            </Banner>
          </Layout.Section>
        ) : null}
        {list ? (
          <Layout.Section>
            <OrderList {...list} selection={selection} onSelectionChange={setSelection} />
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
