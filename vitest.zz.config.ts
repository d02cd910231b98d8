import base from "/work/wt-seam/vitest.config";
import { defineConfig } from "vitest/config";
export default defineConfig({ ...base, test: { ...base.test, setupFiles: [], include: ["test/zz-*.test.ts"] } });
