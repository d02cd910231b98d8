import type { RouteConfig } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

// Tests sit beside the code they test; they are not routes.
export default flatRoutes({ ignoredRouteFiles: ["**/.*", "**/*.test.*"] }) satisfies RouteConfig;
