import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * The reference Remix app for the home page figure (bench/reference/README.md): the app's
 * own root and home route components, stock Remix, with loaders that return constants.
 * Built by `npm run bench` into build/reference/.
 */
const root = path.resolve(import.meta.dirname, "../../..");

/**
 * The app's route modules lose their loaders' server imports in its own client build (Remix
 * removes route modules' server exports); re-exported from here they are plain modules, so
 * the client build gets an empty module for every `*.server` import instead. The page's
 * JavaScript is not what this reference measures: its server's HTML is.
 */
const serverModulesStubbedInTheBrowser: Plugin = {
  name: "reference-server-stubs",
  enforce: "pre",
  resolveId(id, _importer, options) {
    if (!options?.ssr && /\.server(\.tsx?)?$/.test(id)) return "\0server-stub";
  },
  load(id) {
    if (id === "\0server-stub") return { code: "export default {};", syntheticNamedExports: "default" };
  },
};

export default defineConfig({
  root,
  plugins: [
    serverModulesStubbedInTheBrowser,
    tailwindcss(),
    remix({
      appDirectory: "bench/reference/remix/app",
      buildDirectory: "build/reference",
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths({ root }),
  ],
  build: { target: "es2022" },
  logLevel: "warn",
});
