import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Rollup } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * zod's comments that mention `@__PURE__` in prose: Rollup says it cannot interpret them and
 * drops them, which changes nothing, but a newcomer's first build reads as failing. Only
 * those are silenced; every other warning is shown.
 */
const isZodCommentAnnotation = (log: Rollup.RollupLog) => log.code === "INVALID_ANNOTATION" && /[\\/]node_modules[\\/]zod[\\/]/.test(log.id ?? "");

export default defineConfig({
  plugins: [
    tailwindcss(),
    remix({
      ignoredRouteFiles: ["**/*.test.{ts,tsx}", "**/.*"],
      // The spec names the quick raffles page both /quick and /quick-raffles: one module serves both.
      routes: (defineRoutes) =>
        defineRoutes((route) => {
          route("/quick-raffles", "routes/quick.tsx", { id: "routes/quick-raffles" });
          // Coins and VIP share the checkout module; it reads which one from the path.
          route("/vip/checkout", "routes/checkout.tsx", { id: "routes/vip-checkout" });
        }),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths(),
  ],
  build: {
    target: "es2022",
    rollupOptions: {
      onwarn: (warning, warn) => {
        if (!isZodCommentAnnotation(warning)) warn(warning);
      },
    },
  },
  server: { port: 3000 },
});
