import { describe, expect, it } from "vitest";

import { openGuardedPage } from "./support/browser";
import { demo, openApp, shippingAccount, withDemoBrowser } from "./support/demo";
import { checkScreen, see } from "./support/label-flow";

const browser = withDemoBrowser();

type EmulatedReturn = {
  id: string;
  name: string;
  orderId: string;
  orderName: string;
  status: string;
  reverseFulfillmentOrders: {
    reverseDeliveries: {
      label: { fileUrl: string } | null;
      tracking: { number: string | null } | null;
      customerNotified: boolean;
    }[];
  }[];
};

/** The returns as the emulated store holds them (what Shopify would show the merchant). */
async function storeReturns(): Promise<EmulatedReturn[]> {
  const response = await fetch(`${demo().shopifyUrl}/__emulator/returns`);
  if (!response.ok) throw new Error(`reading returns failed: ${response.status}`);
  return ((await response.json()) as { returns: EmulatedReturn[] }).returns;
}

describe("return labels", () => {
  it("approves a customer's return, buys its label once, and Shopify holds it on the return", async () => {
    const requested = (await storeReturns()).find((r) => r.status === "REQUESTED");
    if (!requested) throw new Error("the demo store has no requested return");
    const guarded = await openGuardedPage(browser(), "return-label");
    const frame = await openApp(guarded.page, `/app/orders/${requested.orderId.split("/").pop() ?? ""}`);
    await see(frame.getByRole("heading", { name: `Order ${requested.orderName}` }));

    const section = frame.getByRole("region", { name: `Return ${requested.name}` });
    await see(section.getByText("Requested by the customer"));
    await section.getByRole("button", { name: "Approve return" }).click();
    await see(section.getByText("Open"), 20_000);
    await see(section.getByText(/back to/));
    await section.getByRole("button", { name: "Get return rates" }).click();
    const choose = await see(section.getByRole("button", { name: /^Choose / }), 20_000);
    await choose.click();
    const buy = await see(section.getByRole("button", { name: /^Buy return label for \$/ }));
    const amount = ((await buy.innerText()).match(/\$[\d.,]+/) ?? [""])[0];
    await checkScreen(guarded, frame, "return-label-confirm");
    await buy.click();
    await see(section.getByText("Attached to the return in Shopify"), 30_000);
    await checkScreen(guarded, frame, "return-label-bought");

    // The service charged once, at the price confirmed; Shopify holds the label and its tracking.
    const account = await shippingAccount();
    expect(account.charges).toHaveLength(1);
    expect(`$${account.charges[0]?.amount}`).toBe(amount);
    const after = (await storeReturns()).find((r) => r.id === requested.id);
    expect(after?.status).toBe("OPEN");
    const deliveries = after?.reverseFulfillmentOrders.flatMap((rfo) => rfo.reverseDeliveries) ?? [];
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.label?.fileUrl).toMatch(/^https?:\/\//);
    expect(deliveries[0]?.tracking?.number).toBeTruthy();
    expect(await section.innerText()).toContain(deliveries[0]?.tracking?.number ?? "no tracking");

    // The Labels list finds it under Return labels.
    const labels = await openApp(guarded.page, "/app/labels");
    await labels.getByLabel("Show").selectOption("return");
    await see(labels.getByText("Return", { exact: true }));
    await see(labels.getByRole("link", { name: requested.orderName }));

    guarded.assertClean();
    await guarded.close();
  });
});
