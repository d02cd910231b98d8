import { Badge, Banner, BlockStack, Button, Card, Checkbox, InlineStack, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";

import type { LabelSummary } from "~/routes/app.orders.$orderId/order-label-page.server";
import { describeService } from "~/shipping/services";
import { formatMinorUnits } from "~/utils/money";

import type { AnswerFetcher } from "./action-answer";
import { BuyConfirmation } from "./buy-confirmation";
import { ShortcutAction } from "./keyboard-shortcuts";

// A drafted label: what it costs, Buy (after a confirmation naming the exact amount), Edit and
// Discard; a hold in Shopify or a refused purchase said where the merchant looks.

export function DraftCard({
  draft,
  editing,
  notifyCustomer,
  onNotifyCustomerChange,
  buy,
  discard,
  redraft,
  onStartEditing,
  onCancelEditing,
  refusal = null,
  focusBuy = false,
}: {
  draft: LabelSummary;
  editing: boolean;
  notifyCustomer: boolean;
  onNotifyCustomerChange: (notify: boolean) => void;
  buy: AnswerFetcher;
  discard: AnswerFetcher;
  redraft: AnswerFetcher;
  onStartEditing: () => void;
  onCancelEditing: () => void;
  /** Why a rate's Buy drafted this label but did not buy it (a hold, the balance): said here, where Buy now is. */
  refusal?: string | null;
  /**
   * The draft was just made on this page (a rate chosen, by click or C): the control that made it
   * is gone, so focus goes to Buy, the next step, rather than falling to the page's body.
   */
  focusBuy?: boolean;
}) {
  const [confirmBuy, setConfirmBuy] = useState(false);
  const buyButtonId = `buy-draft-${draft.id}`;
  useEffect(() => {
    if (focusBuy) document.getElementById(buyButtonId)?.focus();
  }, [focusBuy, buyButtonId]);
  const price = formatMinorUnits(draft.quotedCents, draft.currency);
  const service = describeService({ carrier: draft.carrier, service: draft.serviceName ?? draft.serviceCode });
  const shownRefusal = buy.data?.error && buy.state === "idle" ? buy.data.error.message : buy.data ? null : refusal;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Draft label: {service}
          </Text>
          <Badge tone={draft.progress === "on_hold" ? "attention" : "info"}>
            {draft.status === "purchasing" ? "Buying…" : draft.progress === "on_hold" ? "On hold" : "Draft (free)"}
          </Badge>
        </InlineStack>
        {/* Shopify holds the shipment: buying is refused (and says why) until the hold is released. */}
        {draft.progress === "on_hold" && draft.attention ? (
          <Banner tone="warning" title="On hold in Shopify">
            <p>{draft.attention}</p>
          </Banner>
        ) : null}
        {editing ? (
          <Banner tone="info" title="Editing this draft">
            <p>
              Change the details below, then get rates and choose one: the new draft replaces this one, free. Until then
              this draft stays as it is.
            </p>
          </Banner>
        ) : (
          <Text as="p">
            Quoted {price}. Drafts cost nothing; you are charged only when you buy. To change the details below, choose
            Edit.
          </Text>
        )}
        <Checkbox
          label="Notify the customer with the tracking link"
          checked={notifyCustomer}
          onChange={onNotifyCustomerChange}
        />
        {/* Hidden while a new attempt runs: the last refusal is not this attempt's answer. */}
        {shownRefusal ? (
          <Banner tone="critical" title="The label was not bought">
            <p>{shownRefusal}</p>
          </Banner>
        ) : null}
        {buy.data?.writeBackError ? (
          <Banner tone="warning" title="Bought, but tracking did not reach Shopify">
            <p>{buy.data.writeBackError}</p>
          </Banner>
        ) : null}
        <InlineStack gap="200">
          <Button
            id={buyButtonId}
            variant="primary"
            onClick={() => setConfirmBuy(true)}
            loading={buy.state !== "idle"}
            disabled={buy.state !== "idle" || draft.status === "creating" || editing}
          >
            {`Buy label for ${price}`}
          </Button>
          {/* B opens the same confirmation as the button: a key never spends by itself. */}
          <ShortcutAction
            name="buy"
            onPress={() => setConfirmBuy(true)}
            disabled={buy.state !== "idle" || draft.status === "creating" || editing || confirmBuy}
          />
          {draft.status === "draft" ? (
            editing ? (
              <Button onClick={onCancelEditing} disabled={redraft.state !== "idle"}>
                Cancel editing
              </Button>
            ) : (
              <Button onClick={onStartEditing} disabled={buy.state !== "idle" || discard.state !== "idle"}>
                Edit
              </Button>
            )
          ) : null}
          <discard.Form method="post">
            <input type="hidden" name="intent" value="discard" />
            <input type="hidden" name="labelId" value={draft.id} />
            <Button
              submit
              loading={discard.state !== "idle"}
              disabled={discard.state !== "idle" || buy.state !== "idle" || redraft.state !== "idle"}
            >
              Discard draft
            </Button>
          </discard.Form>
        </InlineStack>
      </BlockStack>
      <BuyConfirmation
        open={confirmBuy}
        price={price}
        service={service}
        packageCount={draft.packageCount}
        options={draft.options}
        notifyCustomer={notifyCustomer}
        busy={buy.state !== "idle"}
        onConfirm={() => {
          setConfirmBuy(false);
          buy.submit({ intent: "buy", labelId: draft.id, notifyCustomer: String(notifyCustomer) }, { method: "post" });
        }}
        onClose={() => setConfirmBuy(false)}
      />
    </Card>
  );
}
