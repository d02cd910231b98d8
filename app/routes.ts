import { flatRoutes } from "@remix-run/fs-routes";

// Tests sit beside the code they test; they are not routes.
export default flatRoutes({ ignoredRouteFiles: ["**/.*", "**/*.test.*"] });
