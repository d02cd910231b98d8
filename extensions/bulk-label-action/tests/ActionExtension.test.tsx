import { getExtension } from "@shopify/ui-extensions-tester";
import { fireEvent, waitFor } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";

import type { ExtensionBulkPreflightResponse, ExtensionErrorBody } from "../../../app/extension-api/contract";
import { deferred, harnessExtension, json, query, screenText } from "../../shared/testing";

const extension = getExtension("admin.order-index.selection-action.render");

const ORDER_IDS = ["gid://shopify/Order/1", "gid://shopify/Order/2", "gid://shopify/Order/3", "gid://shopify/Order/4"];
const PREFLIGHT = "POST /api/extensions/bulk/preflight";
const RUNS = "POST /api/extensions/bulk/runs";

const preflight: ExtensionBulkPreflightResponse = {
  ready: 2,
  needsFixing: [
    {
      orderName: "#1003",
      appUrl: "app:app/orders/3",
      problems: ["The recipient's tax ID is missing.", "The box has no weight."],
    },
  ],
  leftOut: [{ orderName: "#1004", reason: "It already has a bought label." }],
};

const primaryButton = () => query('s-button[slot="primary-action"]');

const { serve } = harnessExtension(extension, ORDER_IDS);

describe("bulk label action", () => {
  it("checks every selected order and shows how many are ready, which need fixing and which are left out", async () => {
    const { requests } = serve({ [PREFLIGHT]: () => json(preflight) });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("2 shipments ready"));
    expect(requests.map((r) => r.body)).toEqual([{ orderIds: ORDER_IDS }]);

    const fixing = query('s-section[heading="1 needs fixing"]');
    expect(fixing.textContent).toContain("#1003");
    expect(fixing.textContent).toContain("The recipient's tax ID is missing. The box has no weight.");
    expect(query('s-link[href="app:app/orders/3"]').textContent).toBe("Fix in the app");

    expect(query('s-section[heading="1 left out"]').textContent).toContain("#1004: It already has a bought label.");

    expect(primaryButton().textContent).toBe("Create labels for 2 shipments");
    expect(primaryButton().hasAttribute("disabled")).toBe(false);
  });

  it("starts a run with the selected orders and links to its review, where the labels are bought", async () => {
    const close = vi.fn();
    extension.shopify.close = close;
    const { requests } = serve({
      [PREFLIGHT]: () => json(preflight),
      [RUNS]: () => json({ runId: "run_9", reviewUrl: "app:app/bulk/run_9" }),
    });
    await extension.render();
    await waitFor(() => expect(primaryButton().textContent).toBe("Create labels for 2 shipments"));

    fireEvent.click(primaryButton());

    await waitFor(() => expect(screenText()).toContain("Checking started"));
    expect(requests.filter((r) => r.path === "/api/extensions/bulk/runs").map((r) => r.body)).toEqual([
      { orderIds: ORDER_IDS },
    ]);
    const review = primaryButton();
    expect(review.getAttribute("href")).toBe("app:app/bulk/run_9");
    expect(review.textContent).toBe("Review and buy in the app");
    expect(screenText()).toContain("Nothing has been bought yet");

    const done = query('s-button[slot="secondary-actions"]');
    expect(done.textContent).toBe("Done");
    fireEvent.click(done);
    expect(close).toHaveBeenCalledOnce();
  });

  it("starts one run however often the button is clicked", async () => {
    const answer = deferred<Response>();
    const { requests } = serve({ [PREFLIGHT]: () => json(preflight), [RUNS]: () => answer.promise });
    await extension.render();
    await waitFor(() => expect(primaryButton().textContent).toBe("Create labels for 2 shipments"));

    fireEvent.click(primaryButton());
    fireEvent.click(primaryButton());
    await waitFor(() => expect(primaryButton().hasAttribute("loading")).toBe(true));
    answer.resolve(json({ runId: "run_9", reviewUrl: "app:app/bulk/run_9" }));

    await waitFor(() => expect(screenText()).toContain("Checking started"));
    expect(requests.filter((r) => r.path === "/api/extensions/bulk/runs")).toHaveLength(1);
  });

  it("can't start a run when no shipment is ready", async () => {
    const { requests } = serve({
      [PREFLIGHT]: () => json({ ...preflight, ready: 0 } satisfies ExtensionBulkPreflightResponse),
    });
    await extension.render();

    await waitFor(() => expect(screenText()).toContain("0 shipments ready"));
    expect(primaryButton().textContent).toBe("Create labels for 0 shipments");
    expect(primaryButton().hasAttribute("disabled")).toBe(true);
    fireEvent.click(primaryButton());
    expect(requests.map((r) => r.path)).toEqual(["/api/extensions/bulk/preflight"]);
  });

  it("shows the app's message when the run can't start", async () => {
    const refusal: ExtensionErrorBody = {
      error: {
        code: "INVALID_REQUEST",
        message: "Select at most 250 orders.",
        fields: [{ path: "orderIds", message: "Too many." }],
      },
    };
    serve({ [PREFLIGHT]: () => json(preflight), [RUNS]: () => json(refusal, 400) });
    await extension.render();
    await waitFor(() => expect(primaryButton().textContent).toBe("Create labels for 2 shipments"));

    fireEvent.click(primaryButton());

    await waitFor(() => expect(query('s-banner[tone="critical"]').textContent).toContain("Select at most 250 orders."));
    expect(query('s-banner[tone="critical"]').textContent).toContain("Too many.");
    // Field names are the request's, not the merchant's: only their messages show.
    expect(query('s-banner[tone="critical"]').textContent).not.toContain("orderIds");
    expect(screenText()).not.toContain("Checking started");
    expect(primaryButton().hasAttribute("disabled")).toBe(false);
  });

  it("says plainly when the app can't be reached", async () => {
    extension.fetch = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await extension.render();

    await waitFor(() =>
      expect(query('s-banner[tone="critical"]').textContent).toContain(
        "Couldn't reach the app. Check your connection and try again.",
      ),
    );
    expect(primaryButton().textContent).toBe("Try again");
  });
});
