import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
