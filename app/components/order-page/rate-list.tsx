import {
  Badge,
  BlockStack,
  Box,
  Button,
  InlineStack,
  KeyboardKey,
  SkeletonBodyText,
  SkeletonDisplayText,
  Text,
} from "@shopify/polaris";
import type { ReactNode } from "react";

import { rankRates } from "~/shipments/rate-ranking";
import type { LabelRequestInput } from "~/shipping/preflight";
import type { Rate } from "~/shipping/schemas";
import { formatAmount } from "~/utils/money";

import { PHONE_MEDIA_QUERY } from "../shared/phone-width";
import { findCustomerChoice, pickMarkedRate } from "./marked-rate";

// The rates of a shipment as a merchant compares them: cheapest first, the cheapest, the fastest
// and the customer's choice marked, the carrier written once, days and the expected day of
// arrival; the rate the C key chooses stands out. Beside them, what the customer chose and paid.

// Every row, and each skeleton row standing in for one while rates load, is this tall: the list
// takes its final height before the rates arrive, so nothing below it moves (issue 25 §4).
const ROW_HEIGHT = "3.5rem";

// On a phone (Polaris's smDown) a mark ("Cheapest", "Fastest", "Customer's choice") has no room
// beside the service's name: a marked row was 19 px taller than its skeleton row, and each one
// that arrived pushed the page down. There the marks take a line of their own across the whole
// row, above the name, and every row and skeleton row holds that line (marks, name, days), marked
// or not. Across the row, not under the name beside the price: two marks (the cheapest rate that
// is also the customer's choice) did not fit that column at 360 px and wrapped to a fourth line.
// A media query, not useBreakpoints: the skeleton is in the server's HTML, and a height set after
// hydration would move the page itself. "Press C" goes too: a phone has no key to press, and the
// words cramped the marked row.
//
// A row's two buttons, Buy and Choose (issue 40, item 7), sit side by side; on a phone they stack,
// one above the other beside the price: side by side they left the service's name too little
// room, and a name on two lines made its row taller than its skeleton row. Every phone row, and
// skeleton row, holds the marks' line above the two stacked buttons, marked or not.
const ROW_BODY = "rate-row-body";
const KEY_HINT = "rate-row-key-hint";
const WIDE_MARKS = "rate-row-wide-marks";
const PHONE_MARKS = "rate-row-phone-marks";
const ROW_BUTTONS = "rate-row-buttons";
const PHONE_ROWS = `.${ROW_BUTTONS} { display: flex; gap: 0.5rem; align-items: center; }
.${PHONE_MARKS} { display: none; }
${PHONE_MEDIA_QUERY} {
  .${ROW_BODY} { min-height: 5.5rem; display: flex; flex-direction: column; justify-content: center; }
  .${KEY_HINT}, .${WIDE_MARKS} { display: none; }
  .${PHONE_MARKS} { display: block; }
  .${ROW_BUTTONS} { flex-direction: column; align-items: stretch; gap: 0.25rem; }
}`;

/** The phone rules above, beside the list or skeleton they apply to (the app has no stylesheet of its own). */
const PhoneRowStyle = () => <style>{PHONE_ROWS}</style>;

export function RateList({
  rates,
  customerChose,
  busyRateId,
  disabled,
  onChoose,
  onBuy,
  buyingRateId = null,
}: {
  rates: readonly Rate[];
  /** The shipping method the customer picked at checkout ("Standard Shipping"); null when unknown. */
  customerChose: string | null;
  /** The rate whose draft is being made. */
  busyRateId: string | null;
  disabled: boolean;
  onChoose: (rate: Rate) => void;
  /** Buy in one step (after a confirmation naming the price); no Buy button without it. */
  onBuy?: ((rate: Rate) => void) | undefined;
  /** The rate being bought. */
  buyingRateId?: string | null;
}) {
  const choice = findCustomerChoice(rates, customerChose)?.rate_id ?? null;
  const marked = pickMarkedRate(rates, customerChose)?.rate_id ?? null;
  return (
    <>
      <PhoneRowStyle />
      <BlockStack as="ul" gap="0">
        {rankRates(rates).map(({ rate, name, delivery, cheapest, fastest }) => {
          const price = formatAmount(rate.amount, rate.currency);
          const isMarked = rate.rate_id === marked;
          const marks =
            cheapest || fastest || rate.rate_id === choice ? (
              <InlineStack gap="200" blockAlign="center">
                {cheapest ? <Badge tone="success">Cheapest</Badge> : null}
                {fastest ? <Badge tone="info">Fastest</Badge> : null}
                {rate.rate_id === choice ? <Badge tone="attention">Customer's choice</Badge> : null}
              </InlineStack>
            ) : null;
          return (
            <Box
              as="li"
              key={rate.rate_id}
              minHeight={ROW_HEIGHT}
              paddingBlock="100"
              paddingInline="200"
              borderBlockEndWidth="025"
              borderColor="border-secondary"
              // The rate C chooses: shaded, and said in words beside its button (never colour only).
              {...(isMarked ? { background: "bg-surface-secondary" as const } : {})}
            >
              <div className={ROW_BODY}>
                {/* The same marks twice, one shown at a time; the hidden one is out of the accessibility tree too. */}
                {marks ? <div className={PHONE_MARKS}>{marks}</div> : null}
                <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
                  <BlockStack gap="050">
                    <InlineStack gap="200" blockAlign="center">
                      <Text as="span" fontWeight="medium">
                        {name}
                      </Text>
                      {marks ? <span className={WIDE_MARKS}>{marks}</span> : null}
                    </InlineStack>
                    {delivery ? (
                      <Text as="span" variant="bodySm" tone="subdued">
                        {delivery}
                      </Text>
                    ) : null}
                  </BlockStack>
                  <InlineStack gap="300" blockAlign="center" wrap={false}>
                    {isMarked ? (
                      // One piece on a narrow screen: "Press" above its key reads as two labels.
                      <span className={KEY_HINT} style={{ whiteSpace: "nowrap" }}>
                        <Text as="span" variant="bodySm" tone="subdued">
                          Press <KeyboardKey>C</KeyboardKey>
                        </Text>
                      </span>
                    ) : null}
                    <Text as="span" fontWeight="semibold">
                      {price}
                    </Text>
                    <div className={ROW_BUTTONS}>
                      {onBuy ? (
                        <Button
                          onClick={() => onBuy(rate)}
                          disabled={disabled}
                          loading={buyingRateId === rate.rate_id}
                          accessibilityLabel={`Buy ${name} for ${price}`}
                        >
                          Buy
                        </Button>
                      ) : null}
                      <Button
                        onClick={() => onChoose(rate)}
                        disabled={disabled}
                        loading={busyRateId === rate.rate_id}
                        accessibilityLabel={`Choose ${name} for ${price}${isMarked ? " (shortcut C)" : ""}`}
                      >
                        Choose
                      </Button>
                    </div>
                  </InlineStack>
                </InlineStack>
              </div>
            </Box>
          );
        })}
      </BlockStack>
    </>
  );
}

/** "The customer chose Standard Shipping at checkout and paid $8.95 for shipping." Null when Shopify says neither. */
export function CustomerChoiceNote({
  method,
  paid,
}: {
  method: string | null;
  paid: { amount: string; currency: string } | null;
}) {
  if (!method && !paid) return null;
  const amount = paid ? (
    <Text as="span" fontWeight="semibold">
      {formatAmount(paid.amount, paid.currency)}
    </Text>
  ) : null;
  return (
    <Text as="p" tone="subdued">
      {method ? (
        <>
          The customer chose{" "}
          <Text as="span" fontWeight="semibold">
            {method}
          </Text>{" "}
          at checkout{amount ? <> and paid {amount} for shipping</> : null}.
        </>
      ) : (
        <>The customer paid {amount} for shipping at checkout.</>
      )}
    </Text>
  );
}

/**
 * How many rates a shipment usually gets, by contract.md's services table: several boxes go by
 * UPS Ground only; abroad, the four international services; at home, the eight domestic ones.
 * The skeleton shows as many rows, so the list rarely changes height when the rates arrive.
 */
export function expectedRateCount(request: Pick<LabelRequestInput, "parcels" | "from_address" | "to_address">) {
  if ((request.parcels?.length ?? 1) > 1) return 1;
  const from = request.from_address?.country ?? "US";
  const to = request.to_address?.country ?? "US";
  return from === to ? 8 : 4;
}

/** Rows of the rates' final size while they load (announced to screen readers as loading). */
export function RateListSkeleton({ rows }: { rows: number }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true">
      <PhoneRowStyle />
      <Text as="span" visuallyHidden>
        Loading rates…
      </Text>
      <SkeletonRows rows={rows} />
    </div>
  );
}

/**
 * In the list's place when there are no rates to show (a quote that failed or ran out of time):
 * a message over the skeleton's height, held (issue 40 §5), so the page does not jump from the
 * skeleton to a one-line error and back when the merchant asks again. Never shorter than the
 * skeleton; taller only if the message is (a one-row list).
 */
export function RateListHeld({ rows, children }: { rows: number; children: ReactNode }) {
  return (
    <div style={{ display: "grid" }}>
      <PhoneRowStyle />
      <div aria-hidden="true" style={{ gridArea: "1 / 1", visibility: "hidden" }}>
        <SkeletonRows rows={rows} />
      </div>
      <div style={{ gridArea: "1 / 1", alignSelf: "start" }}>{children}</div>
    </div>
  );
}

function SkeletonRows({ rows }: { rows: number }) {
  return (
    <BlockStack gap="0">
      {Array.from({ length: rows }, (_, i) => (
        <Box
          key={i}
          minHeight={ROW_HEIGHT}
          paddingBlock="100"
          paddingInline="200"
          borderBlockEndWidth="025"
          borderColor="border-secondary"
        >
          <div className={ROW_BODY}>
            <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
              <Box width="45%">
                <SkeletonBodyText lines={2} />
              </Box>
              <Box width="6rem">
                <SkeletonDisplayText size="small" />
              </Box>
            </InlineStack>
          </div>
        </Box>
      ))}
    </BlockStack>
  );
}
