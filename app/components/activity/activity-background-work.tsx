import { BlockStack, Box, Button, Card, Collapsible, InlineStack, Text } from "@shopify/polaris";
import { useState } from "react";
import { useFetcher } from "react-router";

import { formatDateTime } from "../shared/format-date-time";
import { SupportDetails } from "../shared/support-details";

// The Activity screen's two other lists: background work that gave up (with a Retry), and the
// customer data requests Shopify forwarded (what the app holds, for the merchant to send on).

export type DeadJobView = { id: string; name: string; attempts: number; lastError: string | null; failedAt: string };
export type DataRequestView = {
  id: string;
  customerId: string | null;
  orders: string[];
  createdAt: string;
  report: unknown;
};

// Each kind of background job a shop can see give up, in the merchant's words, not its code name.
const JOB_NAMES: Record<string, string> = {
  "label-recovery": "Finishing interrupted purchases and sending tracking to Shopify",
  "auto-draft": "Preparing an automatic draft label",
  "recheck-labels": "Checking bought labels after an order changed",
  "shipping-event": "Applying an update from your shipping account",
  "bulk-check": "Checking an order of a bulk run",
  "bulk-buy": "Buying a label of a bulk run",
};

const describeJob = (name: string) => JOB_NAMES[name] ?? "A background task";

function DeadJobRow({ job }: { job: DeadJobView }) {
  const fetcher = useFetcher<{ ok?: boolean; error?: { message: string } }>();
  const busy = fetcher.state !== "idle";
  const retried = fetcher.data?.ok === true;
  return (
    <InlineStack align="space-between" blockAlign="start" gap="400" wrap={false}>
      <BlockStack gap="100">
        <Text as="p" fontWeight="semibold">
          {describeJob(job.name)}
        </Text>
        <Text as="p" tone="subdued" variant="bodySm">
          Stopped {formatDateTime(job.failedAt)} after {job.attempts} {job.attempts === 1 ? "try" : "tries"}.
        </Text>
        {job.lastError ? (
          // The last error is the app's technical wording of the failure ("Error: …", "lease ended"):
          // for support, behind "Details" as request ids are on this screen.
          <SupportDetails>{job.lastError}</SupportDetails>
        ) : null}
        {fetcher.data?.error ? (
          <Text as="p" tone="critical" variant="bodySm">
            {fetcher.data.error.message}
          </Text>
        ) : null}
      </BlockStack>
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="retry-job" />
        <input type="hidden" name="jobId" value={job.id} />
        <Button submit loading={busy} disabled={busy || retried} accessibilityLabel={`Retry: ${describeJob(job.name)}`}>
          {retried ? "Retrying" : "Retry"}
        </Button>
      </fetcher.Form>
    </InlineStack>
  );
}

export function DeadJobsCard({ jobs }: { jobs: DeadJobView[] }) {
  if (jobs.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Background work that needs you
        </Text>
        <Text as="p" tone="subdued">
          These tasks kept failing and stopped trying on their own. Retry them once the problem is fixed; Details shows
          the last error, for support.
        </Text>
        {jobs.map((job) => (
          <DeadJobRow key={job.id} job={job} />
        ))}
      </BlockStack>
    </Card>
  );
}

function DataRequestRow({ request }: { request: DataRequestView }) {
  const [open, setOpen] = useState(false);
  const id = `data-request-${request.id}`;
  return (
    <BlockStack gap="200">
      <InlineStack align="space-between" blockAlign="center">
        <Text as="p">
          Customer {request.customerId ?? "(unknown)"} · {request.orders.length}{" "}
          {request.orders.length === 1 ? "order" : "orders"} · received {formatDateTime(request.createdAt)}
        </Text>
        <Button onClick={() => setOpen(!open)} ariaExpanded={open} ariaControls={id} variant="plain">
          {open ? "Hide what the app holds" : "Show what the app holds"}
        </Button>
      </InlineStack>
      <Collapsible id={id} open={open}>
        <Box background="bg-surface-secondary" padding="300" borderRadius="200">
          <pre style={{ margin: 0, whiteSpace: "pre-wrap", fontSize: "12px" }}>
            {JSON.stringify(request.report, null, 2)}
          </pre>
        </Box>
      </Collapsible>
    </BlockStack>
  );
}

export function DataRequestsCard({ requests }: { requests: DataRequestView[] }) {
  if (requests.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Customer data requests
        </Text>
        <Text as="p" tone="subdued">
          A customer asked the store for their data. This is everything the app holds for their orders: send it to them
          with the rest of the store&apos;s answer.
        </Text>
        {requests.map((request) => (
          <DataRequestRow key={request.id} request={request} />
        ))}
      </BlockStack>
    </Card>
  );
}

export type ForeignEventRow = {
  eventId: string;
  type: string;
  serviceLabelId: string | null;
  detail: string | null;
  receivedAt: string;
};

/** Labels the shipping service told us about that belong to no order of this store: shown, not acted on. */
export function ForeignEventsCard({ events }: { events: ForeignEventRow[] }) {
  if (events.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Shipping events for other labels
        </Text>
        <Text as="p" tone="subdued">
          Your shipping account reported labels that belong to no order of this store (bought for another store or by
          hand). The app recorded them and changed nothing.
        </Text>
        {events.map((event) => (
          <BlockStack key={event.eventId} gap="050">
            <Text as="p">
              {event.type === "label.purchased" ? "Label bought" : "Tracking update"}
              {event.serviceLabelId ? ` · ${event.serviceLabelId}` : ""}
            </Text>
            <Text as="p" tone="subdued" variant="bodySm">
              {[formatDateTime(event.receivedAt), event.detail].filter(Boolean).join(" · ")}
            </Text>
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}
