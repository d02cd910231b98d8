import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { APP_CONFIG_PATH, loadWebhookSubscriptions, readAppWebhookConfig } from "./app-config";

describe("reading webhook subscriptions from shopify.app.toml", () => {
  it("reads every subscription of the repository's file, multi-line topic lists and compliance topics included", () => {
    expect(readAppWebhookConfig(readFileSync(APP_CONFIG_PATH, "utf8")).apiVersion).toBe("2026-10");
    expect(loadWebhookSubscriptions()).toEqual([
      { topics: ["app/uninstalled"], uri: "/webhooks/app/uninstalled" },
      { topics: ["app/scopes_update"], uri: "/webhooks/app/scopes_update" },
      {
        topics: [
          "fulfillment_orders/order_routing_complete",
          "fulfillment_orders/hold_released",
          "fulfillment_orders/placed_on_hold",
          "fulfillment_orders/scheduled_fulfillment_order_ready",
          "fulfillment_orders/cancelled",
          "fulfillment_orders/moved",
          "fulfillment_orders/merged",
          "fulfillment_orders/split",
        ],
        uri: "/webhooks/fulfillment_orders",
      },
      {
        topics: ["orders/cancelled", "orders/updated"],
        uri: "/webhooks/orders",
        includeFields: ["admin_graphql_api_id", "id", "updated_at"],
      },
      {
        topics: ["returns/request", "returns/approve", "returns/decline", "returns/cancel"],
        uri: "/webhooks/returns",
      },
      { topics: ["customers/data_request", "customers/redact", "shop/redact"], uri: "/webhooks/compliance" },
    ]);
  });

  it("reads comments, escapes, single quotes, trailing commas and include_fields, and ignores other tables", () => {
    const toml = `
name = "App # not a comment"
scopes = "read_orders" # a comment

[webhooks]
api_version = "2025-07"

  [[webhooks.subscriptions]]
  topics = [ # the first list
    "orders/create", # a comment inside the list
    'orders/paid',
  ]
  uri = "https://hooks.example.test/a?x=\\"]\\""
  filter = "id:* AND [x]"
  include_fields = ["id", "name"]

[pos]
embedded = false
uri = "/not/a/subscription"

  [[webhooks.subscriptions]]
  compliance_topics = ["shop/redact"]
  topics = ["app/uninstalled"]
  uri = "/webhooks"
`;
    expect(readAppWebhookConfig(toml)).toEqual({
      apiVersion: "2025-07",
      subscriptions: [
        {
          topics: ["orders/create", "orders/paid"],
          uri: 'https://hooks.example.test/a?x="]"',
          includeFields: ["id", "name"],
        },
        { topics: ["app/uninstalled", "shop/redact"], uri: "/webhooks" },
      ],
    });
  });

  it("refuses what it cannot read instead of dropping a subscription", () => {
    expect(() => readAppWebhookConfig('[[webhooks.subscriptions]]\ntopics = ["a/b"\nuri = "/x"\n')).toThrow(/line 3/);
    expect(() => readAppWebhookConfig('[[webhooks.subscriptions]]\ntopics = ["a/b"]\n')).toThrow(/no uri/);
    expect(() => readAppWebhookConfig('[[webhooks.subscriptions]]\nuri = "/x"\n')).toThrow(/no topics/);
    expect(() => readAppWebhookConfig('[[webhooks.subscriptions]]\ntopics = "a/b"\nuri = "/x"\n')).toThrow(
      /not a list of strings/,
    );
    expect(() => readAppWebhookConfig('name = "unterminated\n')).toThrow(/unterminated string/);
    expect(() =>
      readAppWebhookConfig('[[webhooks.subscriptions]]\ntopics = ["a/b"]\nuri = "/x"\ninclude_fields = "id"\n'),
    ).toThrow(/include_fields of subscription 1 is not a list of field names/);
  });
});
