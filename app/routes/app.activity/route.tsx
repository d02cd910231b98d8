import { BlockStack, Box, Card, EmptyState, InlineStack, Page, Pagination, Text } from "@shopify/polaris";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useLoaderData,
  useNavigation,
  useSearchParams,
} from "react-router";
import { z } from "zod";

import { DataRequestsCard, DeadJobsCard, ForeignEventsCard } from "~/components/activity/activity-background-work";
import { ActivityTable } from "~/components/activity/activity-table";
import { EMPTY_STATE_IMAGE } from "~/components/labels/labels-table";
import { requireShopContext } from "~/http/shop-context.server";
import { listForeignShippingEvents } from "~/labels/parcel-tracking.server";
import { listCustomerDataRequests } from "~/privacy/privacy.server";
import { jobQueueFor } from "~/queue/queue.server";
import { listActivity } from "~/routes/app.activity/activity.server";
import { formatMinorUnits } from "~/utils/money";

// An edited URL with a bad page number shows the first page rather than an error.
const QuerySchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1) });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { db, shop, staffMemberId } = await requireShopContext(request);
  const { page } = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [activity, deadJobs, dataRequests, foreignEvents] = await Promise.all([
    listActivity(db, shop, { page }),
    jobQueueFor(db).listDeadJobs(shop),
    listCustomerDataRequests(db, shop),
    listForeignShippingEvents(db, shop),
  ]);
  return { ...activity, deadJobs, dataRequests, foreignEvents, viewerId: staffMemberId };
};

const ActionSchema = z.object({ intent: z.literal("retry-job"), jobId: z.string().min(1).max(64) });

export const action = async ({ request }: ActionFunctionArgs) => {
  const { db, shop } = await requireShopContext(request);
  const parsed = ActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return Response.json({ error: { message: "Unknown action." } }, { status: 400 });
  const retried = await jobQueueFor(db).retryDeadJob(shop, parsed.data.jobId);
  if (!retried.ok) {
    return Response.json(
      { error: { message: "This task is no longer waiting for a retry; reload the page." } },
      { status: 404 },
    );
  }
  return { ok: true };
};

const describeCalls = (n: number) => `${n} ${n === 1 ? "entry" : "entries"} (purchases, validations and refunds)`;

export default function ActivityPage() {
  const { entries, monthTotal, page, hasNextPage, deadJobs, dataRequests, foreignEvents, viewerId } =
    useLoaderData<typeof loader>();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/app/activity";
  const month = new Date(`${monthTotal.month}T00:00:00Z`).toLocaleString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  const goTo = (next: number) => {
    // Keep whatever else the admin put in the URL (shop, host, embedded); change only the page.
    const params = new URLSearchParams(searchParams);
    if (next > 1) params.set("page", String(next));
    else params.delete("page");
    setSearchParams(params);
  };

  return (
    <Page
      title="Activity"
      subtitle="Everything that can cost money at your shipping service: address validations, label purchases, and refunds of voided labels."
    >
      <BlockStack gap="400">
        <DeadJobsCard jobs={deadJobs} />
        <ForeignEventsCard events={foreignEvents} />
        <Card>
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd">
              Charged in {month}
            </Text>
            {monthTotal.totals.length === 0 ? (
              <Text as="p" variant="heading2xl">
                {formatMinorUnits(0, "USD")}
              </Text>
            ) : (
              monthTotal.totals.map((total) => (
                <Text as="p" variant="heading2xl" key={total.currency}>
                  {formatMinorUnits(total.chargedCents, total.currency)}
                </Text>
              ))
            )}
            <Text as="p" tone="subdued">
              What the shipping service charged this calendar month (UTC), refunds taken off.
              {monthTotal.totals.length > 0
                ? ` ${describeCalls(monthTotal.totals.reduce((n, t) => n + t.calls, 0))}.`
                : ""}{" "}
              Entries marked &quot;Charge unconfirmed&quot; are not counted until confirmed.
            </Text>
          </BlockStack>
        </Card>
        <Card padding="0">
          {entries.length === 0 ? (
            <EmptyState
              heading={page > 1 ? "No more activity" : "No activity yet"}
              action={page > 1 ? { content: "Back to the newest", onAction: () => goTo(1) } : undefined}
              image={EMPTY_STATE_IMAGE}
            >
              <p>
                {page > 1
                  ? "There is nothing older than the previous page."
                  : "Each label bought or voided and each address validated is listed here with its cost and who did it."}
              </p>
            </EmptyState>
          ) : (
            <BlockStack>
              <ActivityTable entries={entries} loading={loading} viewerId={viewerId} />
              <Box padding="400">
                <InlineStack align="center">
                  <Pagination
                    hasPrevious={page > 1 && !loading}
                    onPrevious={() => goTo(page - 1)}
                    hasNext={hasNextPage && !loading}
                    onNext={() => goTo(page + 1)}
                    label={`Page ${page}`}
                  />
                </InlineStack>
              </Box>
            </BlockStack>
          )}
        </Card>
        <DataRequestsCard requests={dataRequests} />
      </BlockStack>
    </Page>
  );
}
