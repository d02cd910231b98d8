import { Form, useActionData, useNavigation } from "@remix-run/react";
import { BlockStack, Button, Card, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";

// "Scan to ship": a barcode scanner types the order number and Enter; the form opens that order's
// label page. The field keeps focus, and is emptied after an unknown number so the next scan does
// not land after the last one; the error names the number that was scanned.

export function HomeScan() {
  const answer = useActionData<{ error?: { message: string } }>();
  const navigation = useNavigation();
  const [value, setValue] = useState("");
  const error = answer?.error?.message;
  useEffect(() => {
    if (error) setValue("");
  }, [error, answer]);
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
            name="orderNumber"
            value={value}
            onChange={setValue}
            autoComplete="off"
            placeholder="#1001"
            helpText="Scan an order's barcode, or type its number and press Enter, to open its label page."
            error={error}
            // Ready for the scanner on arrival. (Not `autoFocus`: Chromium refuses it in the admin's
            // cross-origin frame, and says so in the console.)
            focused
            connectedRight={
              <Button submit loading={busy}>
                Open
              </Button>
            }
          />
          {busy ? (
            <Text as="p" tone="subdued">
              Opening the order…
            </Text>
          ) : null}
        </BlockStack>
      </Form>
    </Card>
  );
}
