import "@shopify/ui-extensions";

//@ts-ignore
declare module "./src/PrintAction.tsx" {
  const shopify: import("@shopify/ui-extensions/admin.order-details.print-action.render").Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module "./src/ShouldRender.ts" {
  const shopify: import("@shopify/ui-extensions/admin.order-details.print-action.should-render").Api;
  const globalThis: { shopify: typeof shopify };
}
