import type { Config } from "@react-router/dev/config";

// Server-rendered, as Remix was: every Remix v3 future flag this app had on is React Router 7's default.
export default {
  ssr: true,
} satisfies Config;
