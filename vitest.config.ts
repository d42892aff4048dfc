import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";
import { TIMEOUTS } from "./tests/support/timeouts";

const shared = {
  plugins: [tsconfigPaths()],
};

export default defineConfig({
  test: {
    // Demo mode on purpose (a DATABASE_URL without Stripe keys refuses to start otherwise);
    // tests/support/stripe-mode.ts sets Stripe keys, which always mean real mode. The demo
    // crowd (ADR 074) plays only where a test turns it on.
    env: { NODE_ENV: "test", DATA_DIR: ".data/test", LOG_LEVEL: "silent", DEMO_MODE: "true", DEMO_CROWD: "0" },
    projects: [
      {
        ...shared,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "scripts/**/*.test.ts", "server/**/*.test.ts", "bench/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/support/fail-on-console.ts"],
        },
      },
      {
        ...shared,
        test: {
          name: "components",
          include: ["app/**/*.test.tsx"],
          environment: "jsdom",
          setupFiles: ["tests/support/fail-on-console.ts", "tests/support/components-setup.ts"],
        },
      },
      {
        ...shared,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/database-global-setup.ts"],
          setupFiles: ["tests/support/fail-on-console.ts", "tests/support/database-setup.ts"],
          testTimeout: TIMEOUTS.vitestTest,
          hookTimeout: TIMEOUTS.vitestHook,
        },
      },
    ],
  },
});
