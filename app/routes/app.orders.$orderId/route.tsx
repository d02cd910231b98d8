import { Banner, BlockStack, Layout, Page } from "@shopify/polaris";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunction,
  useLoaderData,
} from "react-router";

import {
  buyLabelForOrderPage,
  buyRateForOrderPage,
  createDraftForOrderPage,
  discardDraftForOrderPage,
  dismissAttentionForOrderPage,
  loadOrderLabelPage,
  type PageQuoteResult,
  quoteForOrderPage,
  retryWriteBackForOrderPage,
  startOrderPageQuotes,
  validateOrderAddress,
  voidLabelForOrderPage,
} from "~/routes/app.orders.$orderId/order-label-page.server";
import { OrderPageActionSchema } from "~/routes/app.orders.$orderId/order-page-actions.server";
import { redraftShipment } from "~/shipments/reopen-draft.server";
import type { KnownPreflightProblem } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { reportError } from "~/utils/error-report.server";

import { KeyboardShortcutsHelp } from "../../components/order-page/keyboard-shortcuts";
import { OrderLabelWorkspace } from "../../components/order-page/order-label-workspace";
import { OrderReturnsCard } from "../../components/order-page/order-returns-card";
import { answerLabelError, requireOrderGid } from "../../http/order-route.server";
import { requireShopContext } from "../../http/shop-context.server";
import {
  checkSpendingPermission,
  checkStaffPermission,
  PRODUCT_EDITING_RULE,
  respondToSpendingRefusal,
} from "../../http/spending-permission.server";

// /app/orders/:orderId — the label page of one order (numeric Shopify id). Every fulfillment
// order that ships gets its own section (a split order shows each); `?fo=<numeric id>` selects one.

// Within entry.server's streamTimeout (5 s): a quote still out then would be cut from the stream;
// ended by its deadline, it answers with the service's own timeout message instead.
const STREAMED_QUOTE_MS = 4_500;

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop, db, admin, redirect } = await requireShopContext(request);
  const orderGid = requireOrderGid(params);
  const page = await loadOrderLabelPage({ db, shop, admin }, orderGid);
  if (!page.ok) {
    if (page.error.code === "NOT_FOUND") throw new Response(page.error.message, { status: 404 });
    // The page still renders with what to do and a reference to quote.
    const { message } = reportError(page.error, { level: "warn" });
    const quotes: Record<string, Promise<QuoteAnswer>> = {};
    return { page: null, problem: message, quotes };
  }
  // Rates load with the page (issue 25 §2): each a promise the page streams (single fetch), so
  // its HTML never waits for the shipping service; each answers as "Get rates" would.
  const started = await startOrderPageQuotes({ db, shop }, page.value, { deadline: Date.now() + STREAMED_QUOTE_MS });
  const quotes: Record<string, Promise<QuoteAnswer>> = Object.fromEntries(
    Object.entries(started).map(([id, quote]) => [id, quote.then((result) => answerQuote(result, redirect))]),
  );
  return { page: page.value, problem: null, quotes };
};

/** What a quote answers the page: the rates, or the body the action's refusal would carry. */
type QuoteAnswer = {
  intent: "get-rates";
  rates?: Rate[];
  error?: { code: string; message: string; reference?: string };
  problems?: KnownPreflightProblem[];
};

async function answerQuote(result: PageQuoteResult, redirect: (url: string) => Response): Promise<QuoteAnswer> {
  if (result.ok) return { intent: "get-rates", rates: result.value.rates };
  // The same answer as the action's, so a failure reads the same whichever way rates were asked for.
  const response = answerLabelError(result.error, redirect);
  const body = response.headers.get("Content-Type")?.includes("json") ? ((await response.json()) as object) : {};
  return {
    intent: "get-rates",
    error: { code: result.error.code, message: result.error.message },
    ...body,
  };
}

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const context = await requireShopContext(request);
  const orderGid = requireOrderGid(params);
  const parsed = OrderPageActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return Response.json(
      {
        error: {
          code: "INVALID_REQUEST",
          message: "The page sent an incomplete request. Reload and try again.",
          fields: [],
        },
      },
      { status: 400 },
    );
  }
  const input = parsed.data;
  const { db, shop, admin, staffMemberId, redirect } = context;

  if (input.intent === "retry-write-back") {
    const result = await retryWriteBackForOrderPage({ db, shop, admin, staffMemberId }, { orderGid, ...input });
    return result.ok ? { intent: input.intent, ...result.value } : answerLabelError(result.error, redirect);
  }

  if (input.intent === "dismiss-attention") {
    const result = await dismissAttentionForOrderPage({ db, shop, admin }, { orderGid, labelId: input.labelId });
    return result.ok ? { intent: input.intent, ...result.value } : answerLabelError(result.error, redirect);
  }

  // Buying (a draft, or a rate's draft and purchase in one step) spends the shop's money: only for
  // a staff member Shopify lets fulfil orders (ADR 13), asked before anything else so a refusal
  // costs nothing.
  // Voiding cancels the order's fulfillment in Shopify: the same staff only.
  if (input.intent === "buy" || input.intent === "buy-rate" || input.intent === "void") {
    const allowed = await checkSpendingPermission(request, context);
    if (!allowed.ok) return respondToSpendingRefusal(allowed.refusal);
  }

  // Everything else talks to the shipping service: no key → Settings.
  const shipping = await context.requireShipping();
  const deps = { db, shop, admin, shipping, staffMemberId };
  // "Save to product" writes with the app's token: Shopify is asked, when there is something to
  // save, whether this staff member may edit products themselves.
  const mayEdit = async () => {
    const allowed = await checkStaffPermission(request, context, PRODUCT_EDITING_RULE);
    return allowed.ok ? null : allowed.refusal.message;
  };
  switch (input.intent) {
    case "validate-address": {
      const result = await validateOrderAddress(deps, { orderGid, address: input.address });
      return result.ok ? { intent: input.intent, validation: result.value } : answerLabelError(result.error, redirect);
    }
    case "get-rates": {
      const result = await quoteForOrderPage(deps, { orderGid, request: input.request });
      return result.ok ? { intent: input.intent, rates: result.value.rates } : answerLabelError(result.error, redirect);
    }
    case "create-draft": {
      const result = await createDraftForOrderPage(deps, {
        orderGid,
        ...input,
        saveToProduct: input.saveToProduct ? { mayEdit } : false,
      });
      if (!result.ok) return answerLabelError(result.error, redirect);
      const { label, existing, productSave } = result.value;
      return { intent: input.intent, labelId: label.id, existing, productSave };
    }
    case "redraft": {
      const result = await redraftShipment(deps, {
        orderGid,
        ...input,
        saveToProduct: input.saveToProduct ? { mayEdit } : false,
      });
      if (!result.ok) return answerLabelError(result.error, redirect);
      const { label, replacedLabelId, productSave } = result.value;
      return { intent: input.intent, labelId: label.id, replaced: replacedLabelId, productSave };
    }
    case "buy-rate": {
      const result = await buyRateForOrderPage(deps, {
        orderGid,
        ...input,
        saveToProduct: input.saveToProduct ? { mayEdit } : false,
      });
      return result.ok ? { intent: input.intent, ...result.value } : answerLabelError(result.error, redirect);
    }
    case "buy": {
      const result = await buyLabelForOrderPage(deps, { orderGid, ...input });
      return result.ok ? { intent: input.intent, ...result.value } : answerLabelError(result.error, redirect);
    }
    case "discard": {
      const result = await discardDraftForOrderPage(deps, { orderGid, labelId: input.labelId });
      return result.ok ? { intent: input.intent, ...result.value } : answerLabelError(result.error, redirect);
    }
    case "void": {
      const result = await voidLabelForOrderPage(deps, { orderGid, labelId: input.labelId });
      return result.ok ? { intent: input.intent, ...result.value } : answerLabelError(result.error, redirect);
    }
  }
};

// Actions that change nothing the page's loader reads do not read the order again, sparing the
// shop's Shopify allowance: the Returns section's (only its own fetcher loads again) and a quote.
// A needless reload is also one a quick next click interrupts mid-answer, which React Router reports
// as an AbortError in the console.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, formData, defaultShouldRevalidate }) =>
  formAction?.endsWith("/returns") || formData?.get("intent") === "get-rates" ? false : defaultShouldRevalidate;

export default function OrderLabelPage() {
  const { page, problem, quotes } = useLoaderData<typeof loader>();
  if (!page) {
    return (
      <Page title="Order" backAction={{ content: "Orders", url: "/app/orders" }}>
        <Layout>
          <Layout.Section>
            <Banner tone="critical" title="The order did not load">
              <p>{problem}</p>
            </Banner>
          </Layout.Section>
        </Layout>
      </Page>
    );
  }
  return (
    <Page
      title={`Order ${page.order.name}`}
      subtitle={page.fulfillmentOrders.length > 1 ? `${page.fulfillmentOrders.length} shipments` : undefined}
      backAction={{ content: "Orders", url: "/app/orders" }}
      // R, C, B, P: rates, choose, buy (after its confirmation), print; listed by this button.
      secondaryActions={<KeyboardShortcutsHelp />}
    >
      <BlockStack gap="400">
        {page.shopifyProblems.length > 0 ? (
          <Banner tone="warning" title="Some order details are missing">
            <ul>
              {page.shopifyProblems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </Banner>
        ) : null}
        <OrderLabelWorkspace page={page} quotes={quotes} />
        <OrderReturnsCard orderId={page.order.legacyId} />
      </BlockStack>
    </Page>
  );
}
