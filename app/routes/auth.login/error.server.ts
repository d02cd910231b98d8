import { type LoginError, LoginErrorType } from "@shopify/shopify-app-react-router/server";

export type LoginErrorMessage = { shop?: string };

export function loginErrorMessage(loginErrors: LoginError | undefined): LoginErrorMessage {
  if (loginErrors?.shop === LoginErrorType.MissingShop) return { shop: "Enter your store domain to log in." };
  if (loginErrors?.shop === LoginErrorType.InvalidShop)
    return { shop: "Enter a valid store domain, such as my-store.myshopify.com." };
  return {};
}
