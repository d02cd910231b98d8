import { Banner, BlockStack, Box, Layout, Page, Text } from "@shopify/polaris";
import { type ActionFunctionArgs, type LoaderFunctionArgs, useLoaderData } from "react-router";
import { z } from "zod";

import { HomeAttention } from "~/components/home/home-attention";
import { HomeCharts } from "~/components/home/home-charts";
import { HomeHeldLabels } from "~/components/home/home-held-labels";
import { HomeMargin } from "~/components/home/home-margin";
import { HomeScan } from "~/components/home/home-scan";
import { HomeSpend } from "~/components/home/home-spend";
import { ConnectShippingCallout } from "~/components/shared/connect-shipping-callout";
import { type ErrorBody, respondWithError } from "~/http/error-response.server";
import { requireShopContext } from "~/http/shop-context.server";
import { checkSpendingPermission, respondToSpendingRefusal } from "~/http/spending-permission.server";
import { loadHomeScreen } from "~/routes/app._index/home.server";
import { findScannedOrder, shipScannedOrder } from "~/routes/app._index/scan-to-ship.server";
import { getSettingsView } from "~/settings/settings.server";

// /app — the app's first screen: what needs the merchant now, what happened this week and month,
// and a field a barcode scanner types order numbers into (home.server.ts has the figures).

export const loader = async ({ request }: LoaderFunctionArgs) => {
  // Our own rows and two small Shopify reads: the home shows before a shipping key is entered.
  const { db, shop, admin } = await requireShopContext(request);
  const [home, settings] = await Promise.all([
    loadHomeScreen({ db, shop, admin }, { now: new Date() }),
    getSettingsView(db, shop),
  ]);
  return { home, apiKeyConfigured: settings.apiKey.configured, scanBuysDraft: settings.scanBuysDraft };
};

const ScanSchema = z.object({ orderNumber: z.string().max(100) });

/**
 * "Scan to ship": the order number a scanner typed, then Enter → that order's label page, or,
 * with the shop's setting, its one ready draft bought (and printed by the page).
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const context = await requireShopContext(request);
  const { db, shop, admin, staffMemberId, redirect } = context;
  const parsed = ScanSchema.safeParse(Object.fromEntries(await request.formData()));
  const scanned = parsed.success ? parsed.data.orderNumber : "";
  const found = await findScannedOrder({ db, shop, admin }, scanned);
  if (!found.ok) {
    const error = found.error;
    if ("field" in error) {
      // The app's error body (error-response.server.ts), the message naming the field.
      const body: ErrorBody = {
        error: { code: error.code, message: error.message, fields: [{ path: error.field, message: error.message }] },
      };
      return Response.json(body, { status: 422 });
    }
    return respondWithError(error);
  }
  const settings = await getSettingsView(db, shop);
  const outcome = await shipScannedOrder(
    {
      db,
      shop,
      admin,
      staffMemberId,
      scanBuysDraft: settings.scanBuysDraft,
      notifyCustomer: settings.notifyCustomer,
      // Buying spends the shop's money: only for a staff member Shopify lets fulfil orders (ADR 13).
      mayBuy: async () => {
        const allowed = await checkSpendingPermission(request, context);
        return allowed.ok ? null : allowed.refusal;
      },
      shipping: () => context.requireShipping(),
    },
    found.value,
  );
  switch (outcome.kind) {
    case "open":
      // Shopify's redirect keeps shop, host and embedded (see app.bulk.tsx).
      return redirect(`/app/orders/${outcome.orderId}`);
    case "not_bought":
      return outcome.refusal
        ? respondToSpendingRefusal(outcome.refusal)
        : { notBought: { orderId: outcome.orderId, orderName: outcome.orderName, message: outcome.message } };
    case "bought":
      return {
        bought: {
          orderId: outcome.orderId,
          orderName: outcome.orderName,
          label: outcome.label,
          writeBackError: outcome.writeBackError,
        },
      };
  }
};

export default function HomePage() {
  const { home, apiKeyConfigured, scanBuysDraft } = useLoaderData<typeof loader>();
  return (
    <Page title="Home">
      <Layout>
        {!apiKeyConfigured ? (
          <Layout.Section>
            <ConnectShippingCallout />
          </Layout.Section>
        ) : null}
        {home.shopifyProblem ? (
          <Layout.Section>
            <Banner tone="warning" title="Some figures could not be read from Shopify">
              <p>{home.shopifyProblem}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <HomeScan scanBuysDraft={scanBuysDraft} />
        </Layout.Section>
        <Layout.Section>
          <HomeAttention attention={home.attention}>
            <HomeHeldLabels held={home.heldPurchases} />
          </HomeAttention>
        </Layout.Section>
        <Layout.Section>
          <BlockStack gap="400">
            {/* On a phone Polaris cards run edge to edge; the heading keeps the cards' inner margin. */}
            <Box paddingInlineStart={{ xs: "400", sm: "0" }}>
              <Text as="h2" variant="headingLg">
                What happened
              </Text>
            </Box>
            <HomeSpend week={home.week} month={home.month} />
            <HomeCharts
              currency={home.currency}
              spendPerDay={home.spendPerDay}
              labelsByCarrier={home.labelsByCarrier}
              marginByWeek={home.margin.byWeek}
            />
            <HomeMargin margin={home.margin} currency={home.currency} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
