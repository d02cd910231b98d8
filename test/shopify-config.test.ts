import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { Kind, OperationTypeNode, parse, TypeInfo, visit, visitWithTypeInfo } from "graphql";
import { describe, expect, it } from "vitest";

import { ORDER_TOPICS, OrderPayloadSchema } from "../app/webhooks/order-webhooks.server";
import { createAccessCheck, loadAccessRequirements } from "../emulator/shopify/access-scopes";
import { readAppWebhookConfig } from "../emulator/shopify/app-config";
import { loadAdminSchema } from "../emulator/shopify/schema";
import { findGraphqlDocuments } from "./helpers/graphql-documents";
import { ROOT } from "./setup/database";
import { TEST_ENV } from "./setup/test-env";

// The Shopify CLI reads these files; a mistake shows up only when someone runs `shopify app dev`
// or `deploy`, so the parts this app relies on are checked here.
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const routeFileFor = (path: string) => join(ROOT, "app/routes", `${path.replace(/^\//, "").replace(/\//g, ".")}.tsx`);

describe("Shopify CLI configuration", () => {
  it("has a shopify.web.toml that serves the app as frontend and backend with the React Router dev server", () => {
    const web = read("shopify.web.toml");
    expect(web).toMatch(/^roles = \["frontend", "backend"\]$/m);
    expect(web).toMatch(/^dev = ".*react-router dev"$/m);
    const webhooksPath = /^webhooks_path = "([^"]+)"$/m.exec(web)?.[1];
    expect(webhooksPath && existsSync(routeFileFor(webhooksPath))).toBe(true);
  });

  it("drops the obsolete include_config_on_deploy and routes every webhook subscription to a route", () => {
    const app = read("shopify.app.toml");
    expect(app).not.toMatch(/include_config_on_deploy/);
    const uris = [...app.matchAll(/^\s*uri = "([^"]+)"$/gm)].map((m) => m[1] ?? "");
    expect(uris.length).toBeGreaterThan(0);
    expect(uris.filter((uri) => !existsSync(routeFileFor(uri)))).toEqual([]);
  });

  it("asks Shopify for exactly the order fields the orders webhook handler reads", () => {
    const { subscriptions } = readAppWebhookConfig(read("shopify.app.toml"));
    const orders = subscriptions.filter((s) => s.uri === "/webhooks/orders");
    // The handler's topics, as Shopify names them in the file ("ORDERS_UPDATED" → "orders/updated").
    const handled = ORDER_TOPICS.map((topic) => topic.toLowerCase().replace("_", "/"));
    expect(orders.flatMap((s) => s.topics).sort()).toEqual([...handled].sort());
    for (const subscription of orders) {
      expect([...(subscription.includeFields ?? ["(every field)"])].sort()).toEqual(
        Object.keys(OrderPayloadSchema.shape).sort(),
      );
    }
  });

  it("asks for a scope each of the app's mutations needs, as the Admin schema documents it", () => {
    const scopes = (/^scopes = "([^"]*)"$/m.exec(read("shopify.app.toml"))?.[1] ?? "").split(",");
    // The tests run with the scopes the app asks for.
    expect(TEST_ENV.SCOPES.split(",")).toEqual(scopes);
    const schema = JSON.parse(read("app/types/admin-2026-10.schema.json")) as {
      data: { __schema: { types: { name: string; fields?: { name: string; requiredAccess?: string | null }[] }[] } };
    };
    const mutationFields = schema.data.__schema.types.find((t) => t.name === "Mutation")?.fields ?? [];
    const mutations = findGraphqlDocuments(join(ROOT, "app")).flatMap(({ source }) =>
      parse(source).definitions.flatMap((d) =>
        d.kind === Kind.OPERATION_DEFINITION && d.operation === OperationTypeNode.MUTATION
          ? d.selectionSet.selections.flatMap((f) => (f.kind === Kind.FIELD ? [f.name.value] : []))
          : [],
      ),
    );
    expect(mutations).toContain("inventoryItemUpdate");
    // "`write_a` access scope, `write_b` access scope or `write_c` access scope. Also: …": any one.
    const missing = [...new Set(mutations)].flatMap((name) => {
      const access = mutationFields.find((f) => f.name === name)?.requiredAccess ?? "";
      const anyOf = [...(access.split("Also:")[0] ?? "").matchAll(/`(\w+)` access scope/g)].map((m) => m[1] ?? "");
      return anyOf.length === 0 || anyOf.some((scope) => scopes.includes(scope))
        ? []
        : [`${name}: ${anyOf.join(" or ")}`];
    });
    expect(missing).toEqual([]);
  });

  it("reaches every type and field the app's documents read with the scopes it asks for", () => {
    // What Shopify (and the emulator given the app's scopes) would deny with ACCESS_DENIED.
    const scopes = (/^scopes = "([^"]*)"$/m.exec(read("shopify.app.toml"))?.[1] ?? "").split(",");
    const schema = loadAdminSchema();
    const access = createAccessCheck(loadAccessRequirements(), scopes);
    const denied = new Set<string>();
    const documents = findGraphqlDocuments(join(ROOT, "app"));
    for (const { file, source } of documents) {
      const typeInfo = new TypeInfo(schema);
      visit(
        parse(source),
        visitWithTypeInfo(typeInfo, {
          Field(node) {
            const parent = typeInfo.getParentType();
            const field = typeInfo.getFieldDef();
            if (!parent || !field) return;
            const requirement = access.denied(parent.name, node.name.value, field.type);
            if (requirement) denied.add(`${file}: ${parent.name}.${node.name.value} needs ${requirement}`);
          },
        }),
      );
    }
    expect([...denied]).toEqual([]);
    expect(documents.some(({ source }) => source.includes("reverseDeliveryCreateWithShipping"))).toBe(true);
  });
});
