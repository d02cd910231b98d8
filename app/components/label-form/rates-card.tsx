import { Await } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { type ReactNode, type Ref, Suspense } from "react";

import type { KnownPreflightProblem } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";

import { ChooseMarkedRate, ShortcutAction } from "./keyboard-shortcuts";
import { CustomerChoiceNote, RateList, RateListSkeleton } from "./rate-list";

// A shipment's Rates card, above its details (issue 25 §2): the rates that load with the page
// (streamed: the page does not wait for them, a skeleton of their size holds their place), or,
// once the merchant asks with "Get rates" or R after editing the details, the rates for those.

/** A quote's answer, from the page's stream or the Get rates action: the rates, or why there are none. */
export type RatesAnswer = {
  rates?: Rate[];
  error?: { code: string; message: string; reference?: string };
  problems?: KnownPreflightProblem[];
};

export type ChooseRate = {
  customerChose: string | null;
  busyRateId: string | null;
  disabled: boolean;
  onChoose: (rate: Rate) => void;
};

export function RatesCard({
  editing,
  blocked,
  apiKeyConfigured,
  asking,
  onGetRates,
  asked,
  askedFailureRef,
  streamed,
  stale,
  expectedRows,
  customerPaid,
  draftFailure,
  choose,
}: {
  editing: boolean;
  blocked: boolean;
  apiKeyConfigured: boolean;
  /** Get rates is on its way. */
  asking: boolean;
  onGetRates: () => void;
  /** The answer to the merchant's last Get rates: it replaces the streamed rates. */
  asked: RatesAnswer | undefined;
  askedFailureRef: Ref<HTMLDivElement>;
  /** The rates that load with the page, for the details as prefilled; null when none were asked for. */
  streamed: Promise<RatesAnswer> | null;
  /** The details changed since the streamed rates were quoted: they no longer apply. */
  stale: boolean;
  expectedRows: number;
  customerPaid: { amount: string; currency: string } | null;
  draftFailure: ReactNode;
  choose: ChooseRate;
}) {
  const intro = (
    <Text as="p" tone="subdued">
      {editing
        ? "Choosing a rate replaces the draft with one for these details. Drafts are free; you confirm before anything is charged."
        : "Choosing a rate creates a draft label. Drafts are free; you confirm before anything is charged."}
    </Text>
  );
  const loading = (
    <BlockStack gap="200">
      {intro}
      <RateListSkeleton rows={expectedRows} />
    </BlockStack>
  );
  const body = (() => {
    if (asked?.error) return null; // shown above, where it takes focus
    if (asked?.rates) return <RatesView rates={asked.rates} intro={intro} choose={choose} />;
    if (asking) return loading;
    if (streamed && stale) {
      return (
        <Text as="p" tone="subdued">
          You changed the details since the rates were shown: get rates for the new details.
        </Text>
      );
    }
    if (streamed) {
      return (
        <Suspense fallback={loading}>
          <Await
            resolve={streamed}
            errorElement={
              <Banner tone="critical">
                <p>The rates did not load. Choose Get rates to try again.</p>
              </Banner>
            }
          >
            {(answer) =>
              answer.error ? (
                <Banner tone="critical">
                  <p>{answer.error.message}</p>
                </Banner>
              ) : (
                <RatesView rates={answer.rates ?? []} intro={intro} choose={choose} />
              )
            }
          </Await>
        </Suspense>
      );
    }
    return null;
  })();

  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Rates
          </Text>
          <Button
            variant={streamed && !stale && !editing ? "secondary" : "primary"}
            onClick={onGetRates}
            loading={asking}
            disabled={asking || !apiKeyConfigured}
          >
            Get rates
          </Button>
          <ShortcutAction name="get-rates" onPress={onGetRates} disabled={asking || !apiKeyConfigured} />
        </InlineStack>
        {!apiKeyConfigured ? (
          <Text as="p" tone="subdued">
            Enter your shipping API key in Settings to get rates.
          </Text>
        ) : null}
        {blocked ? (
          <Text as="p" tone="subdued">
            Fix the highlighted details; rates may still be shown for what is filled in.
          </Text>
        ) : null}
        {asked?.error ? (
          <div ref={askedFailureRef} tabIndex={-1}>
            <Banner tone="critical">
              <p>{asked.error.message}</p>
            </Banner>
          </div>
        ) : null}
        {draftFailure}
        {apiKeyConfigured ? <CustomerChoiceNote method={choose.customerChose} paid={customerPaid} /> : null}
        {body}
      </BlockStack>
    </Card>
  );
}

function RatesView({ rates, intro, choose }: { rates: Rate[]; intro: ReactNode; choose: ChooseRate }) {
  if (rates.length === 0) {
    return <Text as="p">No carrier offers a service for this shipment. Check the boxes and the address.</Text>;
  }
  return (
    <BlockStack gap="200">
      {intro}
      <RateList
        rates={rates}
        customerChose={choose.customerChose}
        busyRateId={choose.busyRateId}
        disabled={choose.disabled}
        onChoose={choose.onChoose}
      />
      <ChooseMarkedRate
        rates={rates}
        customerChose={choose.customerChose}
        disabled={choose.disabled}
        onChoose={choose.onChoose}
      />
    </BlockStack>
  );
}
