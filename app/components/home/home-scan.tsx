import { Banner, BlockStack, Button, Card, InlineStack, Link, Text, TextField } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { Form, useActionData, useNavigation } from "react-router";

import type { LabelSummary } from "~/routes/app.orders.$orderId/order-label-page.server";
import { describeService } from "~/shipping/services";
import { formatMinorUnits } from "~/utils/money";

import { usePrintInPlace } from "../shared/print-in-place";
import { LabelFileButtons, labelFileUrl } from "../shared/print-label-button";

// "Scan to ship": a barcode scanner types the order number and Enter; the form opens that order's
// label page, or (the shop's setting) buys its ready draft and prints it here, ready for the next
// scan. The field keeps focus, and is emptied after each answer so the next scan does not land
// after the last one; an error names the number that was scanned.

type ScanAnswer = {
  error?: { message: string };
  notBought?: { orderId: string; orderName: string; message: string };
  bought?: { orderId: string; orderName: string; label: LabelSummary; writeBackError: string | null };
};

const SCAN_FIELD_ID = "scan-to-ship-order-number";

export function HomeScan({ scanBuysDraft }: { scanBuysDraft: boolean }) {
  const answer = useActionData<ScanAnswer>();
  const navigation = useNavigation();
  const [value, setValue] = useState("");
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const error = answer?.error?.message;
  useEffect(() => {
    if (answer) setValue("");
  }, [answer]);

  // A bought label prints once, as it arrives (a ZPL label is downloaded from its button instead:
  // a browser cannot print ZPL).
  const { print } = usePrintInPlace(setFileProblem);
  const printed = useRef<string | null>(null);
  const bought = answer?.bought;
  useEffect(() => {
    if (!bought || printed.current === bought.label.id) return;
    printed.current = bought.label.id;
    if ((bought.label.labelFormat ?? "pdf").toLowerCase() === "zpl") return;
    // Printing focuses the label's frame; the field takes the focus back for the next scan.
    void print(labelFileUrl(bought.label.id)).then(() => document.getElementById(SCAN_FIELD_ID)?.focus());
  }, [bought, print]);

  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <Card>
      <Form method="post" replace>
        <BlockStack gap="200">
          <Text as="h2" variant="headingLg">
            Scan to ship
          </Text>
          <TextField
            label="Order number"
            id={SCAN_FIELD_ID}
            name="orderNumber"
            value={value}
            onChange={setValue}
            autoComplete="off"
            placeholder="#1001"
            helpText={
              scanBuysDraft
                ? "Scan an order's barcode, or type its number and press Enter: its draft label is bought and printed when nothing blocks it; otherwise the order opens."
                : "Scan an order's barcode, or type its number and press Enter, to open its label page."
            }
            error={error}
            // Ready for the scanner on arrival. (Not `autoFocus`: Chromium refuses it in the admin's
            // cross-origin frame, and says so in the console.)
            focused
            connectedRight={
              <Button submit loading={busy}>
                {scanBuysDraft ? "Buy and print" : "Open"}
              </Button>
            }
          />
          {busy ? (
            <Text as="p" tone="subdued">
              {scanBuysDraft ? "Looking for the order's draft label…" : "Opening the order…"}
            </Text>
          ) : null}
          {bought ? <BoughtByScan bought={bought} onFileError={setFileProblem} /> : null}
          {fileProblem ? (
            <Banner tone="warning">
              <p>{fileProblem}</p>
            </Banner>
          ) : null}
          {answer?.notBought ? (
            <Banner tone="critical" title={`No label bought for ${answer.notBought.orderName}`}>
              <BlockStack gap="200">
                <p>{answer.notBought.message}</p>
                <p>
                  <Link url={`/app/orders/${answer.notBought.orderId}`}>Open {answer.notBought.orderName}</Link>
                </p>
              </BlockStack>
            </Banner>
          ) : null}
        </BlockStack>
      </Form>
    </Card>
  );
}

function BoughtByScan({
  bought,
  onFileError,
}: {
  bought: NonNullable<ScanAnswer["bought"]>;
  onFileError: (message: string | null) => void;
}) {
  const { label, orderName, orderId, writeBackError } = bought;
  const service = describeService({ carrier: label.carrier, service: label.serviceName ?? label.serviceCode });
  const price = formatMinorUnits(label.chargedCents ?? label.quotedCents, label.currency);
  const zpl = (label.labelFormat ?? "pdf").toLowerCase() === "zpl";
  return (
    <Banner tone={writeBackError ? "warning" : "success"} title={`Label bought for ${orderName}: ${service}, ${price}`}>
      <BlockStack gap="200">
        <p>
          {writeBackError
            ? `The tracking did not reach Shopify yet: ${writeBackError} Open the order to send it again.`
            : zpl
              ? "Tracking added in Shopify. Download the ZPL file for your thermal printer."
              : "Tracking added in Shopify. The print dialog opens for the label."}
        </p>
        <InlineStack gap="300" blockAlign="center">
          <LabelFileButtons label={{ ...label, orderName }} variant="plain" onError={onFileError} />
          <Link url={`/app/orders/${orderId}`}>Open {orderName}</Link>
        </InlineStack>
      </BlockStack>
    </Banner>
  );
}
