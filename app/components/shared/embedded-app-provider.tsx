import { AppProvider as PolarisAppProvider, type AppProviderProps } from "@shopify/polaris";
import englishTranslations from "@shopify/polaris/locales/en.json";
import { type ComponentProps, forwardRef, type ReactNode, useEffect } from "react";
import { Link, useNavigate } from "react-router";

import { SHOPIFY_APP_BRIDGE_URL } from "~/shopify/app-bridge";

type LinkLikeComponentProps = ComponentProps<NonNullable<AppProviderProps["linkComponent"]>>;

// Polaris's links navigate through React Router, so a click stays inside the embedded admin.
const RouterPolarisLink = forwardRef<HTMLAnchorElement, LinkLikeComponentProps>(function RouterPolarisLink(
  { url, children, external, ...rest },
  ref,
) {
  const newTab = external ? { target: "_blank", rel: "noopener noreferrer" } : {};
  return (
    <Link {...rest} {...newTab} to={url} ref={ref}>
      {children}
    </Link>
  );
});

/**
 * App Bridge and Polaris React for the embedded admin. Not the React Router package's
 * `AppProvider`: that one always loads Polaris web components (`polaris.js`) and App Bridge from
 * Shopify's CDN, and this app renders Polaris React and must run offline against the demo's App
 * Bridge stand-in (ADR 29).
 */
export function EmbeddedAppProvider({
  apiKey,
  appBridgeUrl,
  children,
}: {
  readonly apiKey: string;
  /** Where App Bridge loads from: Shopify's CDN unless configured (the offline demo's stand-in). */
  readonly appBridgeUrl: string | null;
  readonly children: ReactNode;
}) {
  const navigate = useNavigate();
  // App Bridge announces the admin's own navigation (its sidebar, NavMenu links) as an event.
  useEffect(() => {
    const followAdminNavigation = (event: Event) => {
      const href = (event.target as HTMLElement | null)?.getAttribute("href");
      if (href) void navigate(href);
    };
    addEventListener("shopify:navigate", followAdminNavigation);
    return () => removeEventListener("shopify:navigate", followAdminNavigation);
  }, [navigate]);
  return (
    <>
      <script src={appBridgeUrl ?? SHOPIFY_APP_BRIDGE_URL} data-api-key={apiKey} />
      <PolarisAppProvider i18n={englishTranslations} linkComponent={RouterPolarisLink}>
        {children}
      </PolarisAppProvider>
    </>
  );
}
