import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { boundary } from "@shopify/shopify-app-react-router/server";
import {
  type HeadersFunction,
  Link,
  type LoaderFunctionArgs,
  Outlet,
  useLoaderData,
  useRouteError,
} from "react-router";

import { DemoBanner } from "../components/shared/demo-banner";
import { EmbeddedAppProvider } from "../components/shared/embedded-app-provider";
import { PhoneHintContext } from "../components/shared/phone-layout";
import { getEnv } from "../env.server";
import { isPhoneRequest } from "../http/phone-hint";
import { authenticate } from "../shopify.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  const env = getEnv();
  // The API key is public (it is the app's client id); App Bridge needs it in the browser. The
  // App Bridge URL is Shopify's CDN unless a host is configured (the offline demo).
  return {
    apiKey: env.SHOPIFY_API_KEY,
    appBridgeUrl: env.APP_BRIDGE_URL ?? null,
    demo: env.DEMO_MODE,
    phone: isPhoneRequest(request.headers),
  };
};

export default function App() {
  const { apiKey, appBridgeUrl, demo, phone } = useLoaderData<typeof loader>();
  return (
    <EmbeddedAppProvider apiKey={apiKey} appBridgeUrl={appBridgeUrl}>
      <NavMenu>
        <Link to="/app" rel="home">
          Home
        </Link>
        <Link to="/app/orders">Orders</Link>
        <Link to="/app/labels">Labels</Link>
        <Link to="/app/activity">Activity</Link>
        <Link to="/app/settings">Settings</Link>
      </NavMenu>
      {demo ? <DemoBanner /> : null}
      {/* The admin's own main landmark is outside the app's frame: inside it, the page is the main content. */}
      <main>
        <PhoneHintContext.Provider value={phone}>
          <Outlet />
        </PhoneHintContext.Provider>
      </main>
    </EmbeddedAppProvider>
  );
}

// Shopify needs the library's boundary to re-throw its auth responses (redirects, 401s) intact.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
