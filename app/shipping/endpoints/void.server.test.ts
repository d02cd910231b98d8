import { beforeEach, describe, expect, it } from "vitest";

import { createShippingEmulator } from "../../../emulator/shipping/emulator";
import { upsGroundDomestic } from "../../../test/fixtures/shipping-requests";
import { createShippingClient, type ShippingLogEntry } from "../client.server";

const BASE_URL = "http://shipping.test";
const T0 = new Date("2026-11-22T15:00:00Z");
const MINUTE = 60_000;
const DAY = 86_400_000;
const emulator = createShippingEmulator({ baseUrl: BASE_URL });

let logs: ShippingLogEntry[] = [];

function makeClient(apiKey = "sk_live_demo") {
  return createShippingClient({
    baseUrl: BASE_URL,
    apiKey,
    fetch: emulator.fetch,
    sleep: async () => {},
    random: () => 0.5,
    log: (entry) => logs.push(entry),
  });
}

async function createDraft(): Promise<string> {
  const draft = await makeClient().createDraftLabel(upsGroundDomestic);
  if (!draft.ok) throw new Error(`draft failed: ${draft.error.logMessage}`);
  return draft.value.id;
}

async function buyLabel(): Promise<{ id: string; charged: string }> {
  const id = await createDraft();
  const bought = await makeClient().purchaseLabel(id);
  if (!bought.ok || bought.value.charged === undefined) throw new Error("purchase failed");
  return { id, charged: bought.value.charged };
}

beforeEach(() => {
  emulator.reset();
  emulator.setNow(T0);
  logs = [];
});

describe("voidLabel", () => {
  it("answers a pending void with the refund, in cents too, and a merchant message", async () => {
    const { id, charged } = await buyLabel();
    const result = await makeClient().voidLabel(id);
    expect(result.ok && result.value).toMatchObject({
      labelId: id,
      status: "void_pending",
      refund: { amount: charged, currency: "USD", status: "pending", requested_at: T0.toISOString() },
      refundCents: Math.round(Number(charged) * 100),
    });
    expect(result.ok && result.value.message).toBe(
      `Refund pending: the carrier is reviewing the void; ${charged} USD will be credited back to your shipping balance once it confirms.`,
    );
  });

  it("answers a voided label with the refunded amount, and asking again never refunds twice", async () => {
    const { id, charged } = await buyLabel();
    const client = makeClient();
    await client.voidLabel(id);
    await emulator.advanceTime(15 * MINUTE);
    const again = await client.voidLabel(id);
    expect(again.ok && again.value).toMatchObject({ status: "voided", refund: { status: "refunded" } });
    expect(again.ok && again.value.message).toBe(
      `Refunded: ${charged} USD was credited back to your shipping balance.`,
    );
    await client.voidLabel(id);
    expect(emulator.refunds("org_demo")).toHaveLength(1);
  });

  it("voids once when asked from two places at once", async () => {
    const { id } = await buyLabel();
    const [a, b] = await Promise.all([makeClient().voidLabel(id), makeClient().voidLabel(id)]);
    expect(a.ok && b.ok).toBe(true);
    await emulator.advanceTime(15 * MINUTE);
    expect(emulator.refunds("org_demo")).toHaveLength(1);
  });

  it.each([
    ["draft", "This label was never bought, so there is nothing to void or refund."],
    ["scanned", "Void refused: the parcel was scanned. The carrier has it, so the label can no longer be refunded."],
    ["too_old", "This label was bought more than 30 days ago; the carrier no longer voids or refunds it."],
  ])("reports 409 NOT_VOIDABLE %s as a refusal with its own message", async (reason, message) => {
    let id: string;
    if (reason === "draft") id = await createDraft();
    else {
      id = (await buyLabel()).id;
      if (reason === "scanned") await emulator.emitTracking(id, { status: "in_transit" });
      else emulator.setNow(new Date(T0.getTime() + 31 * DAY));
    }
    const result = await makeClient().voidLabel(id);
    expect(!result.ok && result.error).toMatchObject({
      code: "NOT_VOIDABLE",
      status: 409,
      voidRefusal: reason,
      message,
      fixable: false,
      retryable: false,
    });
    expect(!result.ok && result.error.outcomeUnknown).toBeFalsy();
  });

  it("reports 404 for an unknown label and for another organization's", async () => {
    const { id } = await buyLabel();
    for (const [labelId, key] of [
      ["lbl_missing", "sk_live_demo"],
      [id, "sk_live_other"],
    ] as const) {
      const result = await makeClient(key).voidLabel(labelId);
      expect(!result.ok && result.error).toMatchObject({
        code: "NOT_FOUND",
        message: "The shipping service has no such label for this account, so it cannot be voided.",
      });
    }
  });

  it("reads the label back when the answer is lost, and finds the void recorded once", async () => {
    const { id } = await buyLabel();
    emulator.setFaults({ failures: [{ endpoint: "POST /v1/labels/{id}/void", kind: "lost_after_charge", times: 3 }] });
    const result = await makeClient().voidLabel(id);
    expect(result.ok && result.value.status).toBe("void_pending");
    await emulator.advanceTime(15 * MINUTE);
    expect(emulator.refunds("org_demo")).toHaveLength(1);
    expect(logs.some((l) => l.message.includes("reads back void_pending"))).toBe(true);
  });

  it("retries a 503 and then succeeds", async () => {
    const { id } = await buyLabel();
    emulator.setFaults({ failures: [{ endpoint: "POST /v1/labels/{id}/void", kind: "unavailable", times: 1 }] });
    const result = await makeClient().voidLabel(id);
    expect(result.ok && result.value.status).toBe("void_pending");
  });

  it("leaves the outcome unknown when neither the void nor the read-back answers", async () => {
    const { id } = await buyLabel();
    emulator.setFaults({
      failures: [
        { endpoint: "POST /v1/labels/{id}/void", kind: "drop_connection", times: 10 },
        { endpoint: "GET /v1/labels/{id}", kind: "unavailable", times: 10 },
      ],
    });
    const result = await makeClient().voidLabel(id);
    expect(!result.ok && result.error).toMatchObject({ code: "NETWORK_ERROR", outcomeUnknown: true });
    expect(!result.ok && result.error.message).toBe(
      "The shipping service could not be reached. Try again in a moment.",
    );
  });

  it("reports a 429 that never went through as a plain refusal to retry later", async () => {
    const { id } = await buyLabel();
    emulator.setFaults({
      failures: [{ endpoint: "POST /v1/labels/{id}/void", kind: "rate_limited", times: 10, retry_after: 0 }],
    });
    const result = await makeClient().voidLabel(id);
    expect(!result.ok && result.error).toMatchObject({ code: "RATE_LIMITED", retryable: true });
    expect(!result.ok && result.error.outcomeUnknown).toBeFalsy();
  });

  it("reads a decision the carrier made later through getLabel: status and refund as they stand", async () => {
    const { id } = await buyLabel();
    const client = makeClient();
    await client.voidLabel(id);
    await emulator.emitTracking(id, { status: "in_transit" });
    const record = await client.getLabel(id);
    expect(record.ok && record.value).toMatchObject({
      status: "purchased",
      refund: { status: "rejected", reason: "scanned" },
    });
  });
});
