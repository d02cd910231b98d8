import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  Form,
  FormLayout,
  InlineStack,
  Text,
  TextField,
} from "@shopify/polaris";
import { forwardRef, useEffect, useRef, useState } from "react";

import type { ConnectionReport } from "~/settings/test-connection.server";

import { SupportDetails } from "../shared/support-details";
import { fieldError, formError, readActionError } from "./settings-action-data";
import { FormProblem } from "./settings-form";
import { useGuardedFetcher } from "./settings-guarded-fetcher";

type Props = {
  apiKey: { configured: boolean; hint: string | null };
  mode: "sandbox" | "live";
  /** Whether the service sends this shop its events (a label bought elsewhere, tracking updates). */
  events: { connected: boolean };
};

export function SettingsApiKeyCard({ apiKey, mode, events }: Props) {
  const save = useGuardedFetcher();
  const check = useGuardedFetcher();
  const remove = useGuardedFetcher();
  const [draft, setDraft] = useState("");
  const [editing, setEditing] = useState(!apiKey.configured);

  // After a key is saved, the field empties: the key is never shown back, only its last 4.
  const saved = save.data && "ok" in save.data ? save.data : null;
  useEffect(() => {
    if (saved) {
      setDraft("");
      setEditing(false);
    }
  }, [saved]);
  useEffect(() => {
    if (!apiKey.configured) setEditing(true);
  }, [apiKey.configured]);

  // The newest report from whichever of the two buttons ran last.
  const report = latestReport(check.data && "ok" in check.data ? check.data.connection : undefined, saved?.connection);
  const anyBusy = save.busy || check.busy || remove.busy;
  // A new key the service refused or could not check was not stored: the card says so, and what
  // it says of the saved key (badge, tracking) stays about the saved key.
  const saveError = readActionError(save.data);
  const notSaved = saveError && saveError.code !== "INVALID_SETTINGS" ? saveError : null;
  const checkFailed = report?.status === "failed";
  const keyRefused = report?.status === "failed" && KEY_PROBLEMS.has(report.code);
  // The card may sit below the fold on a small screen: a failure takes focus, so it is seen and read.
  const failureBanner = useRef<{ focus: () => void } | null>(null);
  const failure = notSaved ?? (checkFailed ? report : null);
  useEffect(() => {
    if (failure) failureBanner.current?.focus();
  }, [failure]);

  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            API key
          </Text>
          {!apiKey.configured ? (
            <Badge tone="attention">Not set</Badge>
          ) : keyRefused ? (
            <Badge tone="critical">Not working</Badge>
          ) : (
            <Badge tone={mode === "live" ? "success" : "info"}>{mode === "live" ? "Live key" : "Sandbox key"}</Badge>
          )}
        </InlineStack>
        {/* After a failed check the failure banner is the whole story: no "connected" beside it. */}
        {apiKey.configured && !checkFailed ? (
          <Text as="p" tone={report?.status === "connected" && !report.events.connected ? "critical" : "subdued"}>
            {(report?.status === "connected" ? report.events.connected : events.connected)
              ? "Tracking updates are connected: labels bought in your shipping account, and each parcel's progress, reach your Shopify orders."
              : "Tracking updates are not connected yet. Test the connection to connect them."}
          </Text>
        ) : null}
        {apiKey.configured ? (
          <Text as="p">
            Saved key ending in{" "}
            <Text as="span" fontWeight="semibold">
              {apiKey.hint ?? "••••"}
            </Text>
            .{" "}
            {mode === "live"
              ? "Labels and address validations are charged to your shipping account."
              : "Sandbox: labels are test labels and nothing is charged."}
          </Text>
        ) : (
          <Banner tone="warning" title="Enter your shipping API key to create labels">
            <p>Copy it from your shipping service account (API keys). Keys starting with sk_test_ are sandbox keys.</p>
          </Banner>
        )}
        {/* A report about a key that was removed since would mislead. */}
        {report && apiKey.configured ? (
          <ConnectionReportBanner report={report} ref={notSaved ? undefined : failureBanner} />
        ) : null}
        {notSaved ? (
          <Banner tone="critical" title="The new key was not saved" ref={failureBanner}>
            <p>{notSaved.message}</p>
          </Banner>
        ) : (
          <FormProblem problem={formError(save.data, ["apiKey"])} />
        )}
        {editing ? (
          <Form onSubmit={() => save.submit({ intent: "saveApiKey", apiKey: draft })}>
            <FormLayout>
              <TextField
                label={apiKey.configured ? "New API key" : "API key"}
                type="password"
                autoComplete="off"
                value={draft}
                onChange={setDraft}
                error={fieldError(save.data, "apiKey")}
                helpText="Stored encrypted. Only its last 4 characters are ever shown again."
              />
              <InlineStack gap="200">
                <Button submit variant="primary" loading={save.busy} disabled={anyBusy || draft.trim() === ""}>
                  Save and test key
                </Button>
                {apiKey.configured ? (
                  <Button onClick={() => setEditing(false)} disabled={save.busy}>
                    Cancel
                  </Button>
                ) : null}
              </InlineStack>
            </FormLayout>
          </Form>
        ) : (
          <InlineStack gap="200">
            <Button onClick={() => check.submit({ intent: "testConnection" })} loading={check.busy} disabled={anyBusy}>
              Test connection
            </Button>
            <Button onClick={() => setEditing(true)} disabled={anyBusy}>
              Replace key
            </Button>
            <Button
              tone="critical"
              variant="plain"
              onClick={() => remove.submit({ intent: "removeApiKey" })}
              loading={remove.busy}
              disabled={anyBusy}
            >
              Remove key
            </Button>
          </InlineStack>
        )}
      </BlockStack>
    </Card>
  );
}

// Failed checks that are about the saved key itself, not about reaching the service.
const KEY_PROBLEMS: ReadonlySet<string> = new Set([
  "UNAUTHENTICATED",
  "NO_ORGANIZATION",
  "API_KEY_MISSING",
  "API_KEY_UNREADABLE",
]);

/**
 * The service's request id of a connection check, for its support: behind "Details", as on
 * Activity, out of the way until asked for; nothing when the service gave none.
 */
function RequestIdLine({ requestId }: { requestId: string | null | undefined }) {
  return requestId ? <SupportDetails>Request id {requestId}</SupportDetails> : null;
}

function latestReport(a: ConnectionReport | undefined, b: ConnectionReport | undefined): ConnectionReport | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a.checkedAt >= b.checkedAt ? a : b;
}

export const ConnectionReportBanner = forwardRef<{ focus: () => void }, { report: ConnectionReport }>(
  function ConnectionReportBanner({ report }, ref) {
    if (report.status === "connected") {
      return (
        <Banner tone="success" title="Connected to the shipping service">
          <BlockStack gap="100">
            <p>
              Verified: the service accepted the key
              {report.keyHint ? ` ending in ${report.keyHint.replace(/^•+/, "")}` : ""} and it is attached to an
              organization, so it can create labels.
            </p>
            <p>
              {report.mode === "live"
                ? "Live key: labels and address validations are charged to your shipping account."
                : "Sandbox key: test labels, nothing is charged."}
            </p>
            <p>
              {report.events.connected
                ? "Tracking updates: connected."
                : `Tracking updates: not connected. ${report.events.message ?? ""}`}
            </p>
            <p>
              Not verifiable from here: the organization&apos;s name, its balance and its carrier accounts; the service
              does not share them. Check them in your shipping account.
            </p>
            <RequestIdLine requestId={report.requestId} />
          </BlockStack>
        </Banner>
      );
    }
    return (
      <Banner tone="critical" title="The connection check failed" ref={ref}>
        <BlockStack gap="100">
          <p>{report.message}</p>
          <RequestIdLine requestId={report.requestId} />
        </BlockStack>
      </Banner>
    );
  },
);
