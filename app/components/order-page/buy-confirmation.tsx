import { BlockStack, Checkbox, Modal, Text } from "@shopify/polaris";

// The one confirmation before a label is charged on the order page, whether the merchant buys a
// draft or buys a rate in one step: it names the exact amount (the server's quote, ADR 27), the
// service, the boxes and the options the price includes, and what happens in Shopify after.

export type BuyConfirmationProps = {
  open: boolean;
  /** The amount as the merchant reads it, "$12.34": the button says it too. */
  price: string;
  /** "UPS Ground", as describeService names it. */
  service: string;
  packageCount: number;
  /** The options the price includes, in the merchant's words ("Insured for $250.00"). */
  options: readonly string[];
  notifyCustomer: boolean;
  /** Offered in the dialog itself when nothing else on the screen offers it (a rate's Buy). */
  onNotifyCustomerChange?: (notify: boolean) => void;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

export function BuyConfirmation({
  open,
  price,
  service,
  packageCount,
  options,
  notifyCustomer,
  onNotifyCustomerChange,
  busy,
  onConfirm,
  onClose,
}: BuyConfirmationProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Buy this label?"
      primaryAction={{ content: `Buy for ${price}`, loading: busy, disabled: busy, onAction: onConfirm }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          <Text as="p">
            Your shipping account is charged {price} for {service}
            {packageCount > 1 ? ` (${packageCount} boxes)` : ""}
            {options.length > 0 ? `, which includes: ${options.join(", ")}` : ""}. Then the tracking number is added to
            the fulfillment in Shopify{notifyCustomer ? " and the customer is notified" : ""}.
          </Text>
          {onNotifyCustomerChange ? (
            <Checkbox
              label="Notify the customer with the tracking link"
              checked={notifyCustomer}
              onChange={onNotifyCustomerChange}
            />
          ) : null}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
