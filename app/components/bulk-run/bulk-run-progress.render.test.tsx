import { describe, expect, it } from "vitest";

import type { BulkRunView } from "~/bulk/bulk-run-view.server";

import { renderScreen } from "../../../test/helpers/render-screen";
import { BulkRunProgress } from "./bulk-run-progress";

async function renderProgress(run: BulkRunView): Promise<string> {
  const Screen = () => (
    <BulkRunProgress run={run} busy={false} onCancel={() => {}} onRetry={() => {}} onDownloadError={() => {}} />
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
    printable: { pdf: { count: 0, elsewhere: [] }, zpl: { count: 0, elsewhere: [] }, png: { count: 0, elsewhere: [] } },
  }) as unknown as BulkRunView;

describe("a running bulk run's progress", () => {
  it("shows the time left and says when Shopify's limit for the store sets the pace", async () => {
    const html = await renderProgress(running({ seconds: 270, limitedBy: "shopify" }));
    expect(html).toContain(
      "10% · 100 bought · 0 failed · 900 remaining · about 5 min left (at the pace Shopify allows this store)",
    );
  });

  it("shows the time left alone when the shipping service sets the pace", async () => {
    const html = await renderProgress(running({ seconds: 45, limitedBy: "shipping" }));
    expect(html).toContain("900 remaining · about 45 s left<");
  });

  it("promises no time while labels wait to be retried", async () => {
    const html = await renderProgress(
      running({ seconds: 45, limitedBy: "shipping" }, { count: 2, cause: "Shopify is not answering." }),
    );
    expect(html).not.toContain("left");
  });
});
