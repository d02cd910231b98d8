import { type LoaderFunctionArgs, redirect } from "react-router";

// Shopify opens the app at / with ?shop=…; send it into the embedded app, which authenticates.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  throw redirect("/auth/login");
};
