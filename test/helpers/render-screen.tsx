import { AppProvider as PolarisAppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";

import { TEST_ENV } from "../setup/test-env";

/** A screen rendered to HTML as the server renders it on a page load: its component, given `data` as its loader's. */
export async function renderScreen(path: string, Component: ComponentType, data: unknown): Promise<string> {
  const { query, dataRoutes } = createStaticHandler([
    { path: path.split("?")[0], loader: () => data as Record<string, unknown>, Component },
  ]);
  const context = await query(new Request(`${TEST_ENV.SHOPIFY_APP_URL}${path}`));
  if (context instanceof Response) throw new Error(`unexpected response ${context.status}`);
  const router = createStaticRouter(dataRoutes, context);
  return renderToString(
    <PolarisAppProvider i18n={en}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </PolarisAppProvider>,
  );
}
