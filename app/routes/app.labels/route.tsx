import {
  Banner,
  BlockStack,
  Box,
  Card,
  EmptyState,
  InlineStack,
  Page,
  Pagination,
  Select,
  Text,
  useIndexResourceState,
} from "@shopify/polaris";
import { useState } from "react";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useLoaderData,
  useNavigation,
  useSearchParams,
} from "react-router";
import { z } from "zod";

import { EMPTY_STATE_IMAGE, LABEL_STATUS_NAMES, LabelsTable } from "~/components/labels/labels-table";
import { usePolling } from "~/components/shared/use-polling";
import { useVoidLabels, VoidLabelsModal } from "~/components/shared/void-labels";
import { requireShopContext } from "~/http/shop-context.server";
import { LabelIdsFieldSchema, voidLabelsForStaff } from "~/http/void-labels.server";
import { isNamedLabelFilter, LABEL_FILTER_NAMES, LABEL_LIST_FILTERS } from "~/routes/app.labels/label-list";
import { listShopLabels } from "~/routes/app.labels/label-list.server";

// /app/labels — every label of the shop; select bought ones (or one row) to void them (ADR 22).

// While a refund is pending on the page, the carrier's decision shows without a reload.
const VOID_POLL_MS = 5_000;

// Malformed query values fall back to the first page of all labels rather than an error page:
// they only ever come from an edited URL.
const QuerySchema = z.object({
  status: z.enum(LABEL_LIST_FILTERS).catch("all"),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

export const loader = async ({ request }: LoaderFunctionArgs) => {
  // Reads our own rows only: the list must show even before a shipping key is entered.
  const { db, shop } = await requireShopContext(request);
  const query = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return listShopLabels(db, shop, { filter: query.status, page: query.page });
};

const ActionSchema = z.object({ intent: z.literal("void"), labelIds: LabelIdsFieldSchema });

export const action = async ({ request }: ActionFunctionArgs) => {
  const context = await requireShopContext(request);
  const parsed = ActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "The page sent an incomplete request. Reload and try again.";
    return Response.json({ error: { code: "INVALID_REQUEST", message, fields: [] } }, { status: 400 });
  }
  return voidLabelsForStaff(request, context, parsed.data.labelIds);
};

export default function LabelsPage() {
  const { items, counts, filter, page, hasNextPage } = useLoaderData<typeof loader>();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/app/labels";
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(items);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const voiding = useVoidLabels((answer) => {
    // Answered: the modal closes and, once voided, the selection is done with.
    setChosen(null);
    if ("results" in answer) clearSelection();
  });
  usePolling(
    items.some((i) => i.status === "void_pending" || i.refund?.status === "requesting"),
    VOID_POLL_MS,
  );
  const candidates = (chosen ?? []).flatMap((id) => {
    const item = items.find((i) => i.id === id);
    return item
      ? [
          {
            id,
            orderName: item.orderName,
            refundCents: item.chargedCents ?? item.quotedCents,
            currency: item.currency,
            blocker: item.voidBlocker,
          },
        ]
      : [];
  });

  const go = (next: { status?: string; page?: number }) => {
    // Keep whatever else the admin put in the URL (shop, host, embedded); change only ours.
    const params = new URLSearchParams(searchParams);
    params.delete("status");
    params.delete("page");
    const status = next.status ?? filter;
    const nextPage = next.page ?? 1;
    if (status !== "all") params.set("status", status);
    if (nextPage > 1) params.set("page", String(nextPage));
    setSearchParams(params);
  };

  const options = LABEL_LIST_FILTERS.map((f) => ({
    label: `${isNamedLabelFilter(f) ? LABEL_FILTER_NAMES[f] : LABEL_STATUS_NAMES[f]} (${counts[f]})`,
    value: f,
  }));

  return (
    <Page title="Labels" subtitle="Every label of your store, newest first.">
      <BlockStack gap="400">
        {voiding.banner(new Set(items.filter((i) => i.refund?.status === "refunded").map((i) => i.id)))}
        {fileProblem ? (
          <Banner
            tone="critical"
            title="The label could not be printed or downloaded"
            onDismiss={() => setFileProblem(null)}
          >
            <p>{fileProblem}</p>
          </Banner>
        ) : null}
        <Card padding="0">
          <Box padding="400">
            <InlineStack align="space-between" blockAlign="center">
              <Box minWidth="240px">
                <Select
                  label="Show"
                  labelInline
                  options={options}
                  value={filter}
                  onChange={(value) => go({ status: value })}
                />
              </Box>
              <Text as="span" tone="subdued">
                {counts.all} in total
              </Text>
            </InlineStack>
          </Box>
          {items.length === 0 ? (
            counts.all === 0 ? (
              <EmptyState
                heading="No labels yet"
                action={{ content: "Go to orders", url: "/app/orders" }}
                image={EMPTY_STATE_IMAGE}
              >
                <p>Open an order that is ready to ship and create its label; it will be listed here.</p>
              </EmptyState>
            ) : (
              <EmptyState
                heading={
                  filter === "write_back_failed"
                    ? "Every bought label's tracking is in Shopify"
                    : isNamedLabelFilter(filter)
                      ? `No ${LABEL_FILTER_NAMES[filter].toLowerCase()}`
                      : `No ${LABEL_STATUS_NAMES[filter].toLowerCase()} labels`
                }
                action={{ content: "Show all labels", onAction: () => go({ status: "all" }) }}
                image={EMPTY_STATE_IMAGE}
              >
                <p>
                  {page > 1
                    ? "There are no labels after the previous page."
                    : "Choose another status to see more labels."}
                </p>
              </EmptyState>
            )
          ) : (
            <BlockStack>
              <LabelsTable
                items={items}
                loading={loading}
                selection={{
                  selected: selectedResources,
                  allSelected: allResourcesSelected,
                  onSelectionChange: handleSelectionChange,
                }}
                onVoid={(ids) => setChosen(ids)}
                onFileError={setFileProblem}
              />
              <Box padding="400">
                <InlineStack align="center">
                  <Pagination
                    hasPrevious={page > 1 && !loading}
                    onPrevious={() => go({ page: page - 1 })}
                    hasNext={hasNextPage && !loading}
                    onNext={() => go({ page: page + 1 })}
                    label={`Page ${page}`}
                  />
                </InlineStack>
              </Box>
            </BlockStack>
          )}
        </Card>
      </BlockStack>
      <VoidLabelsModal
        open={chosen !== null}
        candidates={candidates}
        busy={voiding.busy}
        onClose={() => setChosen(null)}
        onConfirm={voiding.submit}
      />
    </Page>
  );
}
