import type { Prisma } from "@prisma/client";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  InlineStack,
  Layout,
  Page,
  ProgressBar,
  Text,
} from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";

import { cancelBulkRun, confirmBulkRun, retryFailedBulkItems } from "~/bulk/bulk-buying.server";
import { describeBulkChoice } from "~/bulk/bulk-choice";
import { type BulkRunItemView, type BulkRunView, getBulkRun } from "~/bulk/bulk-run-view.server";
import { type BulkItemStatus } from "~/bulk/bulk-runs.server";
import { PRINT_FILES, PRINT_FORMATS, printFileName } from "~/bulk/print-files";
import { DownloadButton } from "~/components/download-button";
import { usePolling } from "~/components/use-polling";
import { requireShopContext } from "~/http/shop-context.server";
import { checkSpendingPermission, respondToSpendingRefusal } from "~/http/spending-permission.server";
import { enqueueBulkBuy } from "~/jobs/bulk-run-jobs.server";
import { formatMinorUnits } from "~/utils/money";

// /app/bulk/:runId — one bulk run: checking → review (the exact total, then Buy) → progress →
// results (retry failed, print). Everything shown comes from the run's rows, so a reload, a
// restart or another browser shows the same; the page polls while the worker is at it.

const POLL_MS = 2_000;

function requireRunId(params: { runId?: string }): string {
  const id = params.runId ?? "";
  if (!/^[a-z0-9]{8,40}$/.test(id)) throw new Response("Run not found", { status: 404 });
  return id;
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { db, shop } = await requireShopContext(request);
  const run = await getBulkRun(db, shop, requireRunId(params));
  if (!run) throw new Response("Run not found", { status: 404 });
  return { run };
};

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("confirm"),
    count: z.coerce.number().int().min(0),
    totalCents: z.coerce.number().int().min(0),
  }),
  z.object({ intent: z.literal("cancel") }),
  z.object({ intent: z.literal("retry-failed") }),
]);

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { db, shop, staffMemberId } = await requireShopContext(request);
  const runId = requireRunId(params);
  const parsed = ActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return Response.json({ error: { message: "Unknown action." } }, { status: 400 });
  const enqueueBuy = (tx: Prisma.TransactionClient, itemId: string) => enqueueBulkBuy(tx, shop, itemId);
  const input = parsed.data;
  // Confirming and retrying let the worker spend: only for a staff member Shopify lets fulfil
  // orders (ADR 13), who is then named on every purchase. Cancelling is anyone's.
  if (input.intent !== "cancel") {
    if (!(await db.bulkRun.findFirst({ where: { id: runId, shop }, select: { id: true } }))) {
      return Response.json({ error: { message: "This run does not exist." } }, { status: 404 });
    }
    const allowed = await checkSpendingPermission(request, { shop, staffMemberId });
    if (!allowed.ok) return respondToSpendingRefusal(allowed.refusal);
  }
  const result =
    input.intent === "confirm"
      ? await confirmBulkRun(db, shop, runId, { count: input.count, totalCents: input.totalCents }, enqueueBuy, {
          confirmedBy: staffMemberId,
        })
      : input.intent === "cancel"
        ? await cancelBulkRun(db, shop, runId)
        : await retryFailedBulkItems(db, shop, runId, enqueueBuy, { retriedBy: staffMemberId });
  if (!result.ok) {
    const status = result.error.code === "NOT_FOUND" ? 404 : 409;
    return Response.json({ error: { message: result.error.message } }, { status });
  }
  return { ok: true };
};

const STATUS_TEXT: Record<BulkItemStatus, string> = {
  checking: "Checking",
  blocked: "Needs fixing",
  skipped: "Left out",
  ready: "Ready",
  queued: "Waiting",
  buying: "Buying",
  bought: "Bought",
  failed: "Failed",
  not_started: "Not started",
  not_fulfillable: "Not bought",
};
const STATUS_TONE: Partial<Record<BulkItemStatus, "success" | "critical" | "warning" | "attention" | "info">> = {
  blocked: "warning",
  bought: "success",
  failed: "critical",
  not_fulfillable: "warning",
  buying: "info",
  ready: "info",
};

const RUN_TITLE: Record<BulkRunView["status"], string> = {
  checking: "Checking the orders",
  review: "Review and buy",
  running: "Buying labels",
  done: "Labels bought",
  stopped: "Stopped",
  cancelled: "Cancelled",
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function describeItem(item: BulkRunItemView): string {
  if (item.problems.length > 0) return item.problems.map((p) => p.message).join(" ");
  return item.message ?? "";
}

function orderLink(item: BulkRunItemView) {
  const id = item.orderGid.split("/").pop() ?? "";
  return (
    <Button variant="plain" url={`/app/orders/${id}`}>
      {item.orderName}
    </Button>
  );
}

function ItemsTable({ items }: { items: BulkRunItemView[] }) {
  return (
    <DataTable
      columnContentTypes={["text", "text", "text", "numeric", "numeric", "text"]}
      headings={["Order", "Status", "Service", "Boxes", "Price", "Details"]}
      rows={items.map((item) => [
        orderLink(item),
        <Badge key="s" {...(STATUS_TONE[item.status] ? { tone: STATUS_TONE[item.status] } : {})}>
          {STATUS_TEXT[item.status]}
        </Badge>,
        item.service ?? "—",
        item.boxes ?? "—",
        item.quotedCents === null ? "—" : formatMinorUnits(item.quotedCents),
        describeItem(item),
      ])}
    />
  );
}

function formatEstimate(seconds: number | null): string {
  if (seconds === null) return "";
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

export default function BulkRunPage() {
  const { run } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<{ ok?: boolean; error?: { message: string } }>();
  const busy = fetcher.state !== "idle";
  const working = run.status === "checking" || run.status === "running";

  usePolling(working, POLL_MS);

  const ready = run.items.filter((i) => i.status === "ready");
  const settled = run.progress.bought + run.progress.failed + run.progress.notFulfillable;
  const toBuy = settled + run.progress.remaining;
  const checked = run.items.filter((i) => i.status !== "checking").length;
  const blocked = run.items.filter((i) => i.status === "blocked");
  const submit = (data: Record<string, string>) => fetcher.submit(data, { method: "post" });
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const error = fetcher.data?.error?.message ?? downloadError;

  return (
    <Page
      title={RUN_TITLE[run.status]}
      backAction={{ content: "Orders", url: "/app" }}
      subtitle={`Bulk labels · ${plural(run.items.length, "shipment")}`}
    >
      <Layout>
        {error ? (
          <Layout.Section>
            <Banner tone="critical" title="That did not work">
              <p>{error}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {run.status === "stopped" && run.stopReason ? (
          <Layout.Section>
            <Banner tone="critical" title="The run stopped">
              <p>{run.stopReason} What was bought stays bought; the rest was not started.</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              {run.status === "checking" ? (
                <>
                  <Text as="p">
                    Checking {plural(run.items.length, "order")}: addresses, weights, customs and rates. Nothing is
                    bought yet.
                  </Text>
                  <ProgressBar animated={false} progress={run.items.length ? (checked / run.items.length) * 100 : 0} />
                </>
              ) : null}
              {run.status === "review" ? (
                <>
                  <Text as="p" tone="subdued">
                    {describeBulkChoice(run.choice)}
                  </Text>
                  <Text as="p">
                    {plural(ready.length, "label")} ready, {formatMinorUnits(run.totalCents)} in total.
                    {blocked.length === 1 ? " 1 shipment needs fixing and is left out: open its order to fix it." : ""}
                    {blocked.length > 1
                      ? ` ${plural(blocked.length, "shipment")} need fixing and are left out: open their orders to fix them.`
                      : ""}
                  </Text>
                  <InlineStack gap="200">
                    <Button
                      variant="primary"
                      disabled={ready.length === 0}
                      loading={busy}
                      onClick={() =>
                        submit({ intent: "confirm", count: String(ready.length), totalCents: String(run.totalCents) })
                      }
                    >
                      {`Buy ${plural(ready.length, "label")} for ${formatMinorUnits(run.totalCents)}`}
                    </Button>
                    <Button disabled={busy} onClick={() => submit({ intent: "cancel" })}>
                      Cancel
                    </Button>
                  </InlineStack>
                </>
              ) : null}
              {run.status !== "checking" && run.status !== "review" ? (
                <>
                  <ProgressBar
                    animated={false}
                    progress={toBuy ? (settled / toBuy) * 100 : 100}
                    tone={run.progress.failed > 0 ? "critical" : "success"}
                  />
                  <Text as="p">
                    {`${run.progress.bought} bought · ${run.progress.failed} failed · ${run.progress.remaining} remaining`}
                    {run.progress.notStarted > 0 ? ` · ${run.progress.notStarted} not started` : ""}
                    {run.progress.notFulfillable > 0
                      ? ` · ${run.progress.notFulfillable} not bought (held or closed in Shopify)`
                      : ""}
                    {run.estimateSeconds !== null ? ` · ${formatEstimate(run.estimateSeconds)}` : ""}
                  </Text>
                  <InlineStack gap="200">
                    {run.status === "running" ? (
                      <Button loading={busy} onClick={() => submit({ intent: "cancel" })}>
                        Cancel the rest
                      </Button>
                    ) : null}
                    {run.progress.failed + run.progress.notFulfillable > 0 && run.status !== "running" ? (
                      <Button loading={busy} onClick={() => submit({ intent: "retry-failed" })}>
                        {run.progress.notFulfillable > 0 ? "Retry the labels not bought" : "Retry failed"}
                      </Button>
                    ) : null}
                    {run.progress.bought > 0
                      ? PRINT_FORMATS.map((format) => (
                          <DownloadButton
                            key={format}
                            primary={format === "pdf"}
                            url={`/app/bulk/${run.id}/print?format=${format}`}
                            fileName={printFileName(run.id, format)}
                            onError={setDownloadError}
                          >
                            {PRINT_FILES[format].button}
                          </DownloadButton>
                        ))
                      : null}
                  </InlineStack>
                </>
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card padding="0">
            <ItemsTable items={run.items} />
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
