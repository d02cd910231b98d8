import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { BlockStack, Box, Card, EmptyState, InlineStack, Page, Pagination, Select, Text } from "@shopify/polaris";
import { z } from "zod";

import { EMPTY_STATE_IMAGE, LABEL_STATUS_NAMES, LabelsTable } from "~/components/labels-table";
import { requireShopContext } from "~/http/shop-context.server";
import { LABEL_LIST_FILTERS } from "~/screens/label-list";
import { listShopLabels } from "~/screens/label-list.server";

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

export default function LabelsPage() {
  const { items, counts, filter, page, hasNextPage } = useLoaderData<typeof loader>();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/app/labels";

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
    label: `${f === "all" ? "All labels" : LABEL_STATUS_NAMES[f]} (${counts[f]})`,
    value: f,
  }));

  return (
    <Page title="Labels" subtitle="Every label of the shop, newest first.">
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
              action={{ content: "Go to orders", url: "/app" }}
              image={EMPTY_STATE_IMAGE}
            >
              <p>Open an order that is ready to ship and create its label; it will be listed here.</p>
            </EmptyState>
          ) : (
            <EmptyState
              heading={`No ${LABEL_STATUS_NAMES[filter as Exclude<typeof filter, "all">]?.toLowerCase() ?? ""} labels`}
              action={{ content: "Show all labels", onAction: () => go({ status: "all" }) }}
              image={EMPTY_STATE_IMAGE}
            >
              <p>{page > 1 ? "This page is past the last label." : "Choose another state to see more labels."}</p>
            </EmptyState>
          )
        ) : (
          <BlockStack>
            <LabelsTable items={items} loading={loading} />
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
    </Page>
  );
}
