import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

import type { TestProject } from "vitest/node";

import { startDemo } from "../../scripts/demo";

declare module "vitest" {
  export interface ProvidedContext {
    demo: { adminUrl: string; appUrl: string; shippingUrl: string; shopifyUrl: string; controlUrl: string };
  }
}

// One `npm run demo` for the whole browser run, on free ports and its own database, exactly as
// a merchant starts it (the app's production build against the emulated admin and shipping
// service). A loopback control endpoint lets each test file put the store back to its seed.
export default async function setup(project: TestProject) {
  // A fresh checkout has no e2e/.artifacts yet, and the database cannot be created in a missing folder.
  mkdirSync(join(process.cwd(), "e2e/.artifacts"), { recursive: true });
  const demo = await startDemo({
    appPort: 0,
    shippingPort: 0,
    shopifyPort: 0,
    orders: 40,
    databasePath: join(process.cwd(), "e2e/.artifacts/demo.sqlite"),
    log: process.env.E2E_DEMO_LOG ? (line) => console.log(line) : null,
  });
  const control = createServer((request, response) => {
    if (request.method === "POST" && request.url === "/reset") {
      demo.reset().then(
        () => response.writeHead(204).end(),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
      return;
    }
    if (request.method === "POST" && request.url?.startsWith("/shopify/fail-next/")) {
      const kind = request.url.split("/").pop();
      if (kind === "THROTTLED" || kind === "SERVICE_UNAVAILABLE") demo.shopify.failNextRequest(kind);
      response.writeHead(204).end();
      return;
    }
    // An order as the store holds it (ids and addresses), for a test acting outside the app.
    if (request.method === "GET" && request.url?.startsWith("/shopify/orders?")) {
      const name = new URL(request.url, "http://control.invalid").searchParams.get("name") ?? "";
      const order = demo.shopify.findOrderByName(name);
      if (!order) {
        response.writeHead(404).end();
        return;
      }
      const body = {
        id: order.id,
        numericId: order.id.split("/").pop(),
        name: order.name,
        shippingAddress: order.shippingAddress,
        // What the customer paid for shipping, in the shop's currency (the home's margin).
        shippingPaid: order.shippingLine?.originalPriceSet?.shopMoney.amount ?? "0.00",
        fulfillmentOrders: order.fulfillmentOrders.map((fo) => ({
          id: fo.id,
          status: fo.status,
          // Where it ships from, with the state's code (the assigned location gives its name).
          assignedLocation: (({ location, ...from }) => ({ ...from, provinceCode: location.address.provinceCode }))(
            fo.assignedLocation,
          ),
        })),
      };
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const address = control.address();
  const port = typeof address === "object" && address ? address.port : 0;
  project.provide("demo", {
    adminUrl: demo.adminUrl,
    appUrl: demo.appUrl,
    shippingUrl: demo.shippingUrl,
    shopifyUrl: demo.shopifyUrl,
    controlUrl: `http://127.0.0.1:${port}`,
  });
  return async () => {
    await new Promise<void>((resolve) => control.close(() => resolve()));
    await demo.stop();
  };
}
