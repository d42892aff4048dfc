import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import boundaries from "eslint-plugin-boundaries";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Which layer may import which (issue 32); docs/ARCHITECTURE.md draws them. */
const layer = (from, to, dependency) => ({
  from: { element: { type: from } },
  allow: { to: { element: { types: { anyOf: to } } }, ...(dependency ? { dependency } : {}) },
});
const LAYERS = [
  layer("routes", ["routes", "web", "components", "services", "infra", "shared"]),
  layer("web", ["web", "services", "infra", "models", "shared"]),
  layer("services", ["services", "infra", "models", "generated", "shared"]),
  layer("infra", ["infra", "models", "generated", "shared"]),
  layer("models", ["models", "generated", "shared"]),
  layer("generated", ["generated"]),
  layer("shared", ["shared"]),
  layer("components", ["components", "shared"]),
  // The shape of what a loader returns, named by type only (useLoaderData's circle).
  layer("components", ["services", "routes"], { kind: "type" }),
];
const LAYER_MESSAGE = "{{from.type}} may not import {{to.type}} (layers: docs/ARCHITECTURE.md)";
const NODE_ONLY = {
  regex: "^node:|^(crypto|fs|path|os|child_process)$",
  message: "app/shared runs in the browser too: server code goes in app/services or app/infra.",
};
const REMIX = { group: ["@remix-run/*"], message: "Remix answers HTTP in routes and app/web; services and models return values." };
const TOAST = { group: ["~/shared/toast", "~/web/*", "~/components/*"], message: "Toasts are the routes' words: return a value." };

export default tseslint.config(
  { ignores: ["build/**", "app/generated/**", "node_modules/**", ".data/**", "tests/artifacts/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    // Game and money randomness comes from node:crypto only (PRODUCT.md, "Fair draws").
    // app/services/fairness/randomness.test.ts proves the rule catches each way of reaching Math.random.
    files: ["server.ts", "server/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "scripts/**/*.ts", "scripts/**/*.mjs"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-properties": ["error", { object: "Math", property: "random", message: "Use node:crypto (randomInt, randomBytes) for anything random." }],
      "no-restricted-syntax": [
        "error",
        {
          // globalThis.Math.random, window.Math["random"]: the rule above sees only a bare Math.
          selector:
            "MemberExpression[object.type='MemberExpression'][object.property.name='Math'][property.name='random'], MemberExpression[object.type='MemberExpression'][object.property.name='Math'][property.value='random']",
          message: "Use node:crypto (randomInt, randomBytes) for anything random.",
        },
      ],
    },
  },
  {
    // Layers (issue 32): a folder imports only itself and the folders below it, judged on the
    // files imports resolve to: routes → web → services → infra → models → shared; components
    // → shared, and the types of what loaders return. Tests and server/ may reach anywhere.
    files: ["app/**/*.{ts,tsx,mjs}"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { typescript: { project: "tsconfig.json" } },
      "boundaries/include": ["app/**/*"],
      "boundaries/elements": [
        { type: "routes", pattern: "app/routes/**", partialMatch: false },
        { type: "web", pattern: "app/web/**", partialMatch: false },
        { type: "components", pattern: "app/components/**", partialMatch: false },
        { type: "services", pattern: "app/services/**", partialMatch: false },
        { type: "infra", pattern: "app/infra/**", partialMatch: false },
        { type: "models", pattern: "app/models/**", partialMatch: false },
        { type: "generated", pattern: "app/generated/**", partialMatch: false },
        { type: "shared", pattern: "app/shared/**", partialMatch: false },
      ],
    },
    rules: { "boundaries/dependencies": ["error", { default: "disallow", message: LAYER_MESSAGE, policies: LAYERS }] },
  },
  {
    // app/shared is bundled for the browser too.
    files: ["app/shared/**/*.{ts,tsx,mjs}"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": ["error", { patterns: [NODE_ONLY, REMIX] }] },
  },
  {
    // Services return values and models rows; routes (with app/web) turn them into answers.
    files: ["app/services/**/*.ts", "app/models/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [REMIX, TOAST] }] },
  },
  {
    // No file of ours over 400 lines (issue 22, ADR 038): a file that grows past it is split
    // along its seams. Generated code (app/generated) is ignored above.
    files: ["server.ts", "{server,app,tests,bench,scripts}/**/*.{ts,tsx,js,mjs,cjs}"],
    rules: { "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Command-line tools print their results.
    files: ["scripts/**/*.mjs", "scripts/**/*.ts"],
    rules: { "no-console": "off" },
  },
);
