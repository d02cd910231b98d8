import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { boundary } from "@shopify/shopify-app-remix/server";

import { DemoBanner } from "../components/demo-banner";
import { PhoneHintContext } from "../components/phone-layout";
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
    <AppProvider isEmbeddedApp apiKey={apiKey} {...(appBridgeUrl ? { __APP_BRIDGE_URL: appBridgeUrl } : {})}>
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
    </AppProvider>
  );
}

// Shopify needs the library's boundary to re-throw its auth responses (redirects, 401s) intact.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
