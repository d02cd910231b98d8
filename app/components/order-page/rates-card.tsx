import { Banner, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { type ReactNode, type Ref, Suspense, useSyncExternalStore } from "react";
import { Await } from "react-router";

import type { KnownPreflightProblem } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";

import { ChooseMarkedRate, ShortcutAction } from "./keyboard-shortcuts";
import { CustomerChoiceNote, RateList, RateListHeld, RateListSkeleton } from "./rate-list";

// A shipment's Rates card, above its details (issue 25 §2): the rates that load with the page
// (streamed: the page does not wait for them, a skeleton of their size holds their place), or,
// once the merchant asks with "Get rates" or R after editing the details, the rates for those.
// Each rate is bought in one step (Buy, then its confirmation) or drafted first (Choose). The
// list's place keeps its size whatever the quote does: loading, slow, failed, asked again.

/** A quote's answer, from the page's stream or the Get rates action: the rates, or why there are none. */
export type RatesAnswer = {
  rates?: Rate[];
  error?: { code: string; message: string; reference?: string };
  problems?: KnownPreflightProblem[];
};

export type ChooseRate = {
  customerChose: string | null;
  /** The rate whose draft is being made. */
  busyRateId: string | null;
  /** The rate being bought in one step. */
  buyingRateId: string | null;
  disabled: boolean;
  onChoose: (rate: Rate) => void;
  /** Buy in one step, after a confirmation naming the price; not offered while a draft is edited. */
  onBuy?: ((rate: Rate) => void) | undefined;
};

/** What the list says above the rates, or above the skeleton standing in for them. */
function RatesIntro({ editing }: { editing: boolean }) {
  return (
    <Text as="p" tone="subdued">
      {editing
        ? "Choosing a rate replaces the draft with one for these details. Drafts are free; you confirm before anything is charged."
        : "Buy a rate's label in one step, once you confirm its price, or choose a rate to make a free draft first."}
    </Text>
  );
}

function RatesLoading({ rows, editing }: { rows: number; editing: boolean }) {
  return (
    <BlockStack gap="200">
      <RatesIntro editing={editing} />
      <RateListSkeleton rows={rows} />
    </BlockStack>
  );
}

/** A failure in the list's place, as tall as the list would be: the page does not jump. */
function RatesFailed({
  rows,
  editing,
  message,
  failureRef,
}: {
  rows: number;
  editing: boolean;
  message: string;
  /** Where focus goes when the merchant asked (Get rates). */
  failureRef?: Ref<HTMLDivElement>;
}) {
  return (
    <BlockStack gap="200">
      <RatesIntro editing={editing} />
      <RateListHeld rows={rows}>
        <div ref={failureRef} tabIndex={-1}>
          <Banner tone="critical">
            <p>{message}</p>
          </Banner>
        </div>
      </RateListHeld>
    </BlockStack>
  );
}

const subscribeToNothing = () => () => {};

/** False in the server's HTML and the render that hydrates it; true after, and on pages opened in the app. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * The rates that load with the page. Rendered in the server's HTML, their Suspense boundary waited
 * there for a quote still on its way (a slow service: up to the page's 4.5 s), and an update
 * reaching it before it hydrated (Polaris's providers set state once mounted) made React give up
 * on it with error #421, logged as uncaught. So the server's HTML and the render that hydrates it
 * hold the skeleton only, and the boundary lives in the browser alone, from the next render, on
 * the promise the page's stream still carries: the same skeleton, then the rates or the failure.
 */
function StreamedRates({
  streamed,
  rows,
  choose,
}: {
  streamed: Promise<RatesAnswer>;
  rows: number;
  choose: ChooseRate;
}) {
  const hydrated = useHydrated();
  const loading = <RatesLoading rows={rows} editing={false} />;
  if (!hydrated) return loading;
  return (
    <Suspense fallback={loading}>
      <Await
        resolve={streamed}
        errorElement={
          <RatesFailed rows={rows} editing={false} message="The rates did not load. Choose Get rates to try again." />
        }
      >
        {(answer) =>
          answer.error ? (
            <RatesFailed rows={rows} editing={false} message={answer.error.message} />
          ) : (
            <RatesView rates={answer.rates ?? []} editing={false} choose={choose} />
          )
        }
      </Await>
    </Suspense>
  );
}

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
  const body = (() => {
    // The answer to Get rates, where the list is: rates stay until new ones come; a failure,
    // which takes focus (its ref), gives way to the skeleton when asked again.
    if (asked?.rates) return <RatesView rates={asked.rates} editing={editing} choose={choose} />;
    if (asking) return <RatesLoading rows={expectedRows} editing={editing} />;
    if (asked?.error) {
      return (
        <RatesFailed rows={expectedRows} editing={editing} message={asked.error.message} failureRef={askedFailureRef} />
      );
    }
    if (streamed && stale) {
      return (
        <Text as="p" tone="subdued">
          You changed the details since the rates were shown: get rates for the new details.
        </Text>
      );
    }
    if (streamed) return <StreamedRates streamed={streamed} rows={expectedRows} choose={choose} />;
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
        {draftFailure}
        {apiKeyConfigured ? <CustomerChoiceNote method={choose.customerChose} paid={customerPaid} /> : null}
        {body}
      </BlockStack>
    </Card>
  );
}

function RatesView({ rates, editing, choose }: { rates: Rate[]; editing: boolean; choose: ChooseRate }) {
  if (rates.length === 0) {
    return <Text as="p">No carrier offers a service for this shipment. Check the boxes and the address.</Text>;
  }
  return (
    <BlockStack gap="200">
      <RatesIntro editing={editing} />
      <RateList
        rates={rates}
        customerChose={choose.customerChose}
        busyRateId={choose.busyRateId}
        buyingRateId={choose.buyingRateId}
        disabled={choose.disabled}
        onChoose={choose.onChoose}
        onBuy={choose.onBuy}
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
