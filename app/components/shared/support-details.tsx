import { Text } from "@shopify/polaris";
import type { ReactNode } from "react";

/**
 * What only support needs (a request id, an error's technical wording): behind "Details", out of
 * the way until asked for.
 */
export function SupportDetails({ children }: { children: ReactNode }) {
  return (
    <details>
      <summary>
        <Text as="span" tone="subdued" variant="bodySm">
          Details
        </Text>
      </summary>
      <Text as="span" variant="bodySm" breakWord>
        {children}
      </Text>
    </details>
  );
}
