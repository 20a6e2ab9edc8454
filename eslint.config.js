// ESLint flat config: Microsoft's Office add-in rules with Prettier (as the Office templates ship)
// over every TypeScript and JavaScript file of the project.
const officeAddins = require("eslint-plugin-office-addins");
const globals = require("globals");
// The plugin's own TypeScript parser (its recommended config refers to it as a default export,
// which this CommonJS build does not have, so name it here).
const tsParser = require(
  require.resolve("@typescript-eslint/parser", {
    paths: [require.resolve("eslint-plugin-office-addins")],
  })
);

module.exports = [
  { ignores: ["dist/**", "node_modules/**", "test-output/**", ".route-sheets/**", "coverage/**"] },
  ...officeAddins.configs.recommended,
  {
    files: ["**/*.{js,cjs,ts}"],
    languageOptions: {
      parser: tsParser,
      ecmaVersion: 2022,
      globals: { ...globals.node, ...globals.browser, ...globals.jest },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // TypeScript checks names and redeclarations itself (overloads, merged declarations).
      "no-undef": "off",
      "no-redeclare": "off",
    },
  },
];
