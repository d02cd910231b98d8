import { ApiType, shopifyApiProject } from "@shopify/api-codegen-preset";
import type { IGraphQLConfig } from "graphql-config";

// The preset reads app/types/admin-<version>.schema.json when it exists (written by
// `npm run setup` from the npm registry) instead of downloading the schema from shopify.dev.
export const ADMIN_API_VERSION = "2026-10";

const config: IGraphQLConfig = {
  projects: {
    default: shopifyApiProject({
      apiType: ApiType.Admin,
      apiVersion: ADMIN_API_VERSION,
      documents: ["./app/**/*.{js,ts,jsx,tsx}"],
      outputDir: "./app/types",
    }),
  },
};

export default config;
