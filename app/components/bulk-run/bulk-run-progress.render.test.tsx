import { describe, expect, it } from "vitest";

import type { BulkRunView } from "~/routes/app.bulk.$runId/bulk-run-view.server";

import { renderScreen } from "../../../test/helpers/render-screen";
import { BulkRunProgress } from "./bulk-run-progress";

async function renderProgress(run: BulkRunView): Promise<string> {
  const Screen = () => (
    <BulkRunProgress
      run={run}
      busy={false}
      onCancel={() => {}}
      onRetry={() => {}}
      onBuyNotBought={() => {}}
      onDownloadError={() => {}}
    />
  );
  // React puts comment markers between adjacent text parts; the merchant reads them as one.
  return (await renderScreen("/app/bulk/run1", Screen, {})).replace(/<!-- -->/g, "");
}

const running = (estimate: BulkRunView["estimate"], retrying: BulkRunView["retrying"] = null): BulkRunView =>
  ({
    id: "run1",
    status: "running",
    items: [],
    retrying,
    progress: { bought: 100, failed: 0, remaining: 900, notStarted: 0, notFulfillable: 0 },
    estimate,
    boughtAfterCancel: null,
    charged: { count: 100, chargedCents: 100_000, refundedCents: 0, currency: "USD" },
    notBought: null,
    printable: { pdf: { count: 0, elsewhere: [] }, zpl: { count: 0, elsewhere: [] }, png: { count: 0, elsewhere: [] } },
  }) as unknown as BulkRunView;

describe("a running bulk run's progress", () => {
  it("shows the time left and says when Shopify's limit for the store sets the pace", async () => {
    const html = await renderProgress(
      running({ seconds: 270, limitedBy: "shopify", slowShippingSecondsPerLabel: null }),
    );
    expect(html).toContain(
      "10% · 100 bought · 0 failed · 900 remaining · about 5 min left (at the pace Shopify allows this store)",
    );
  });

  it("shows the time left alone when the shipping service sets the pace", async () => {
    const html = await renderProgress(
      running({ seconds: 45, limitedBy: "shipping", slowShippingSecondsPerLabel: null }),
    );
    expect(html).toContain("900 remaining · about 45 s left<");
  });

  it("blames the shipping service, not Shopify, when it is what was measured slow", async () => {
    const html = await renderProgress(
      running({ seconds: 540, limitedBy: "shipping", slowShippingSecondsPerLabel: 2.4 }),
    );
    expect(html).toContain(
      "about 9 min left (the shipping service is answering slowly: about 2 s a label; Shopify would allow faster)",
    );
    expect(html).not.toContain("pace Shopify allows");
  });

  it("promises no time while labels wait to be retried", async () => {
    const html = await renderProgress(
      running(
        { seconds: 45, limitedBy: "shipping", slowShippingSecondsPerLabel: null },
        { count: 2, cause: "Shopify is not answering." },
      ),
    );
    expect(html).not.toContain("left");
  });
});

describe("a bulk run that ended", () => {
  const ended = (over: Partial<BulkRunView>): BulkRunView =>
    ({
      ...running(null),
      status: "cancelled",
      progress: { bought: 3, failed: 0, remaining: 0, notStarted: 25, notFulfillable: 0 },
      charged: { count: 3, chargedCents: 3_612, refundedCents: 0, currency: "USD" },
      notBought: { count: 25, totalCents: 30_125, currency: "USD" },
      ...over,
    }) as BulkRunView;

  it("states what it charged and offers the labels it did not buy, with their total", async () => {
    const html = await renderProgress(ended({}));
    expect(html).toContain("This run charged $36.12 for 3 labels.");
    expect(html).toContain("Buy the 25 labels not bought for $301.25");
  });

  it("offers nothing more when every label was bought", async () => {
    const html = await renderProgress(ended({ status: "done", notBought: null }));
    expect(html).not.toContain("not bought for");
  });
});
