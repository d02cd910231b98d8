import { CalloutCard } from "@shopify/polaris";

/** Shown on the Orders list and the home until the shop has entered a shipping API key. */
export function ConnectShippingCallout() {
  return (
    <CalloutCard
      title="Connect your shipping account"
      illustration=""
      primaryAction={{ content: "Open Settings", url: "/app/settings" }}
    >
      <p>
        Enter your shipping service API key in Settings to get rates and buy labels. A sandbox key (sk_test_…) lets you
        try everything for free.
      </p>
    </CalloutCard>
  );
}
