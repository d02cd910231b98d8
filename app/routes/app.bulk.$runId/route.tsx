import type { Prisma } from "@prisma/client";
import { Banner, BlockStack, Card, Layout, Page, ProgressBar, Text } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { type ActionFunctionArgs, type LoaderFunctionArgs, useFetcher, useLoaderData } from "react-router";
import { z } from "zod";

import { buyNotStartedBulkItems, cancelBulkRun, confirmBulkRun, retryFailedBulkItems } from "~/bulk/bulk-buying.server";
import { BulkRunItems } from "~/components/bulk-run/bulk-run-items";
import { BulkRunProgress } from "~/components/bulk-run/bulk-run-progress";
import { BulkRunReview } from "~/components/bulk-run/bulk-run-review";
import { describeRunSize, describeRunTitle, plural } from "~/components/bulk-run/bulk-run-text";
import { BulkRunVoid } from "~/components/bulk-run/bulk-run-void";
import { usePolling } from "~/components/shared/use-polling";
import { requireShopContext } from "~/http/shop-context.server";
import { checkSpendingPermission, respondToSpendingRefusal } from "~/http/spending-permission.server";
import { LabelIdsFieldSchema, voidLabelsForStaff } from "~/http/void-labels.server";
import { enqueueBulkBuy } from "~/jobs/bulk-run-jobs.server";
import { getBulkRun, listBulkRunLabelIds } from "~/routes/app.bulk.$runId/bulk-run-view.server";
import { readRestoreRate } from "~/shopify/paced-admin-client";

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
  const { db, shop, admin } = await requireShopContext(request);
  // The estimate needs the shop's restore rate: known from the pages' answers, or asked once.
  const restoreRate = await readRestoreRate(shop, admin);
  const run = await getBulkRun(db, shop, requireRunId(params), new Date(), restoreRate);
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
  // "Buy the N labels not bought" of a run that ended: confirmed like the review's Buy.
  z.object({
    intent: z.literal("buy-not-bought"),
    count: z.coerce.number().int().min(0),
    totalCents: z.coerce.number().int().min(0),
  }),
  // "Void selected": the run's bought labels, each through the one void use case (ADR 22).
  z.object({ intent: z.literal("void"), labelIds: LabelIdsFieldSchema }),
]);

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const context = await requireShopContext(request);
  const { db, shop, staffMemberId } = context;
  const runId = requireRunId(params);
  const parsed = ActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return Response.json({ error: { message: "Unknown action." } }, { status: 400 });
  const enqueueBuy = (tx: Prisma.TransactionClient, itemId: string) => enqueueBulkBuy(tx, shop, itemId);
  const input = parsed.data;
  if (input.intent === "void") {
    const labelIds = await listBulkRunLabelIds(db, shop, runId);
    if (!labelIds) return Response.json({ error: { message: "This run does not exist." } }, { status: 404 });
    return voidLabelsForStaff(request, context, input.labelIds, labelIds);
  }
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
      : input.intent === "buy-not-bought"
        ? await buyNotStartedBulkItems(
            db,
            shop,
            runId,
            { count: input.count, totalCents: input.totalCents },
            enqueueBuy,
            { confirmedBy: staffMemberId },
          )
        : input.intent === "cancel"
          ? await cancelBulkRun(db, shop, runId)
          : await retryFailedBulkItems(db, shop, runId, enqueueBuy, { retriedBy: staffMemberId });
  if (!result.ok) {
    const status = result.error.code === "NOT_FOUND" ? 404 : 409;
    return Response.json({ error: { message: result.error.message } }, { status });
  }
  return { ok: true };
};

export default function BulkRunPage() {
  const { run } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<{ ok?: boolean; error?: { message: string } }>();
  const busy = fetcher.state !== "idle";
  // Rows keep updating after a cancel while purchases already on the wire finish.
  const working =
    run.status === "checking" || run.status === "running" || run.progress.remaining > 0 || run.counts.checking > 0;

  // And while a refund is pending: the carrier's decision shows without a reload.
  const refundPending = run.items.some((i) => i.refund?.status === "pending" || i.refund?.status === "requesting");
  usePolling(working || refundPending, POLL_MS);

  const checked = run.items.filter((i) => i.status !== "checking").length;
  const submit = (data: Record<string, string>) => fetcher.submit(data, { method: "post" });
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const error = fetcher.data?.error?.message ?? downloadError;
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView({ block: "center" });
  }, [error]);

  return (
    <Page
      title={describeRunTitle(run)}
      backAction={{ content: "Orders", url: "/app/orders" }}
      subtitle={`Bulk labels · ${describeRunSize(run)}`}
    >
      <Layout>
        {error ? (
          <Layout.Section>
            <div ref={errorRef}>
              <Banner tone="critical" title="That did not work">
                <p>{error}</p>
              </Banner>
            </div>
          </Layout.Section>
        ) : null}
        {run.status === "stopped" && run.stopReason ? (
          <Layout.Section>
            <Banner tone="critical" title="The rest of the labels were not bought">
              <p>
                {run.stopReason} Labels already bought are kept. Once that is fixed, create labels for the rest from
                Orders.
              </p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            {run.status === "checking" ? (
              <BlockStack gap="300">
                <Text as="p">
                  Checking {plural(run.items.length, "shipment")}: addresses, weights, customs and rates. Nothing is
                  bought yet.
                </Text>
                <ProgressBar
                  animated={false}
                  progress={run.items.length ? Math.floor((checked / run.items.length) * 100) : 0}
                />
              </BlockStack>
            ) : run.status === "review" ? (
              <BulkRunReview
                run={run}
                busy={busy}
                onConfirm={({ count, totalCents }) =>
                  submit({ intent: "confirm", count: String(count), totalCents: String(totalCents) })
                }
                onCancel={() => submit({ intent: "cancel" })}
              />
            ) : (
              <BulkRunProgress
                run={run}
                busy={busy}
                onCancel={() => submit({ intent: "cancel" })}
                onRetry={() => submit({ intent: "retry-failed" })}
                onBuyNotBought={({ count, totalCents }) =>
                  submit({ intent: "buy-not-bought", count: String(count), totalCents: String(totalCents) })
                }
                onDownloadError={setDownloadError}
              />
            )}
          </Card>
        </Layout.Section>
        {run.status === "review" || run.status === "checking" ? null : (
          <Layout.Section>
            <BlockStack gap="300">
              <BulkRunVoid run={run} />
            </BlockStack>
          </Layout.Section>
        )}
        <Layout.Section>
          <Card padding="0">
            <BulkRunItems items={run.items} />
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
