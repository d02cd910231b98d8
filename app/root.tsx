import { useEffect } from "react";
import { Links, type LinksFunction, Meta, type MetaFunction, Outlet, Scripts, ScrollRestoration } from "react-router";

// Screens add their own title; this one names the app in the browser and to screen readers.
export const meta: MetaFunction = () => [{ title: "Ship Orders" }];

// Its own icon, so browsers do not ask for a /favicon.ico that is not there.
export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export default function App() {
  // Marks the page hydrated once every child's effects ran (App Bridge's navigation listener
  // among them): browser tests wait for it before clicking the admin's sidebar.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
