// Renders the Labels, Activity and Settings screens to HTML with their real components, as the
// server does on a page load, to catch runtime errors (a missing provider, a bad prop) that types
// cannot. Interaction is left to Playwright.
import { describe, expect, it } from "vitest";

import db from "~/db.server";
import { recordAudit } from "~/labels/audit.server";

import { AUTO_DRAFT_SERVICE_OPTIONS } from "../app/auto-draft/auto-draft-rules";
import { listActivity } from "../app/routes/app.activity/activity.server";
import ActivityPage from "../app/routes/app.activity/route";
import { listShopLabels } from "../app/routes/app.labels/label-list.server";
import LabelsPage from "../app/routes/app.labels/route";
import SettingsPage from "../app/routes/app.settings/route";
import type { SettingsScreen } from "../app/routes/app.settings/settings-screen.server";
import { DEFAULT_LABEL_SETTINGS } from "../app/settings/settings";
import { insertLabelRow } from "./helpers/label-rows";
import { renderScreen } from "./helpers/render-screen";
import { TEST_SHOP } from "./setup/test-env";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&quot;/g, "'")
    .replace(/\s+/g, " ");

describe("screens render on the server", () => {
  it("renders the Labels screen with a bought label: order link, mismatch flag, Print and Download", async () => {
    await insertLabelRow({
      orderGid: "gid://shopify/Order/5001",
      orderName: "#1002",
      status: "purchased",
      carrier: "UPS",
      serviceName: "UPS Ground",
      quotedCents: 1210,
      chargedCents: 1345,
      chargeMismatch: true,
      labelUrl: "http://shipping.test/v1/labels/lbl_1/file",
      labelFormat: "pdf",
      writeBackStatus: "failed",
      writeBackLastError: "Shopify refused the fulfillment",
    });
    const html = await renderScreen("/app/labels", LabelsPage, await listShopLabels(db, TEST_SHOP));
    expect(html).toContain('href="/app/orders/5001"');
    // The file comes from the app's print route (with the session token), not the service's link.
    expect(html).not.toContain('href="http://shipping.test/v1/labels/lbl_1/file"');
    expect(html).toContain('aria-label="Print label of #1002"');
    expect(html).toContain('aria-label="Download PDF, label of #1002"');
    expect(text(html)).toContain("Differs from quote");
    expect(text(html)).toContain("$13.45");
    expect(text(html)).toContain("Shopify refused the fulfillment");
  });

  it("renders the Labels screen's empty state with what to do", async () => {
    const html = await renderScreen("/app/labels", LabelsPage, await listShopLabels(db, TEST_SHOP));
    expect(text(html)).toContain("No labels yet");
    expect(text(html)).toContain("Open an order that is ready to ship");
  });

  it("renders the Activity screen with the month total, readable outcomes, the staff member and the order", async () => {
    await insertLabelRow({ orderGid: "gid://shopify/Order/5001", orderName: "#1002" });
    await recordAudit(db, {
      shop: TEST_SHOP,
      action: "purchase",
      outcome: "ok",
      amountCents: 1210,
      requestId: "req_abc",
      staffMemberId: "42",
      orderGid: "gid://shopify/Order/5001",
    });
    await recordAudit(db, { shop: TEST_SHOP, action: "validate", outcome: "unknown", requestId: "req_def" });
    const deadJobs = [
      {
        id: "job_1",
        name: "label-recovery",
        attempts: 5,
        lastError: "Shopify: 503",
        failedAt: new Date().toISOString(),
      },
      { id: "job_2", name: "auto-draft", attempts: 8, lastError: null, failedAt: new Date().toISOString() },
    ];
    const dataRequests = [
      {
        id: "dr_1",
        customerId: "7",
        orders: ["gid://shopify/Order/5001"],
        createdAt: new Date().toISOString(),
        report: {},
      },
    ];
    const html = await renderScreen("/app/activity", ActivityPage, {
      ...(await listActivity(db, TEST_SHOP)),
      deadJobs,
      dataRequests,
      foreignEvents: [
        {
          eventId: "evt_1",
          type: "label.purchased",
          serviceLabelId: "lbl_other",
          detail: "label lbl_other names order 99, not one of this shop's",
          receivedAt: "2026-11-22T10:00:00Z",
        },
      ],
    });
    const shown = text(html);
    expect(shown).toContain("Shipping events for other labels");
    expect(shown).toContain("lbl_other");
    expect(shown).toContain("Background work that needs you");
    expect(shown).toContain("Finishing interrupted purchases");
    // A job's kind in words, never its code name.
    expect(shown).toContain("Preparing an automatic draft label");
    expect(shown).not.toContain("auto-draft");
    expect(shown).toContain("Retry");
    expect(shown).toContain("Customer data requests");
    expect(shown).toContain("$12.10");
    expect(shown).toContain("Charge unconfirmed");
    // Staff in words (names need a scope the app does not ask for); request ids behind "Details".
    expect(shown).toContain("A staff member");
    expect(shown).not.toContain("Staff #42");
    expect(html).toMatch(/<details>.*Request id (<!-- -->)?req_abc/s);
    // A job's last error is for support: behind "Details" too.
    expect(html).toMatch(/<details>.*Shopify: 503/s);
    expect(html).toMatch(/href="\/app\/orders\/5001"[^>]*>#1002</);
  });

  it("renders the Settings screen without a key, with the price of address validation and the built-in box", async () => {
    const data: SettingsScreen = {
      settings: { ...DEFAULT_LABEL_SETTINGS, apiKey: { configured: false, hint: null } },
      presets: [],
      locations: [{ id: "gid://shopify/Location/1", name: "Brooklyn Warehouse", address: "Brooklyn, NY, US" }],
      locationsProblem: null,
      validationPriceCents: 0,
      autoDraft: { enabled: false, rules: [] },
      autoDraftServices: AUTO_DRAFT_SERVICE_OPTIONS,
      shipFromCountry: "US",
      currencyCode: "USD",
      events: { connected: false, url: null, since: null },
      shipToRetentionDays: 90,
    };
    const shown = text(await renderScreen("/app/settings", SettingsPage, data));
    expect(shown).toContain("Enter your shipping API key to create labels");
    expect(shown).toContain("Keep ship-to details for");
    expect(shown).toContain("Free with a sandbox key");
    expect(shown).toContain("No boxes yet");
    expect(shown).toContain("Create a draft label when an order is ready to ship");
    expect(shown).toContain("No rules yet: every draft gets the cheapest rate in the default box.");
    expect(shown).toContain("Brooklyn Warehouse");
  });

  it("renders the Settings screen with a live key, its hint and box presets", async () => {
    const data: SettingsScreen = {
      settings: { ...DEFAULT_LABEL_SETTINGS, mode: "live", apiKey: { configured: true, hint: "••••demo" } },
      presets: [
        { id: "p1", name: "Small", ...DEFAULT_LABEL_SETTINGS.box, isDefault: true },
        { id: "p2", name: "Large", ...DEFAULT_LABEL_SETTINGS.box, length: 20, isDefault: false },
      ],
      locations: [],
      locationsProblem: "Your locations could not be loaded. (Reference: ERR-ABC123)",
      validationPriceCents: 5,
      autoDraft: {
        enabled: true,
        rules: [
          {
            id: "rule_1",
            destination: "domestic",
            countries: [],
            minWeight: null,
            maxWeight: 2,
            weightUnit: "lb",
            minOrderValue: null,
            maxOrderValue: null,
            choice: "cheapest",
            serviceCode: null,
            boxPresetId: "p1",
          },
        ],
      },
      autoDraftServices: AUTO_DRAFT_SERVICE_OPTIONS,
      shipFromCountry: null,
      currencyCode: null,
      events: { connected: true, url: "https://ship-orders.test/webhooks/shipping/key", since: "2026-11-22T10:00:00Z" },
      shipToRetentionDays: 30,
    };
    const shown = text(await renderScreen("/app/settings", SettingsPage, data));
    expect(shown).toContain("••••demo");
    expect(shown).toContain("Test connection");
    expect(shown).toContain("$0.05 per validation with your live key");
    expect(shown).toContain("Make default");
    expect(shown).toContain("ERR-ABC123");
    expect(shown).toContain("Rule 1 Domestic, up to 2 lb → cheapest rate, in Small");
  });
});
