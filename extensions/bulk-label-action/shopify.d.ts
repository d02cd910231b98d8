import "@shopify/ui-extensions";

//@ts-ignore
declare module "./src/ActionExtension.tsx" {
  const shopify: import("@shopify/ui-extensions/admin.order-index.selection-action.render").Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module "./src/ShouldRender.ts" {
  const shopify: import("@shopify/ui-extensions/admin.order-index.selection-action.should-render").Api;
  const globalThis: { shopify: typeof shopify };
}
