/** Jest runs the TypeScript sources directly (transpile-only for speed; `npm run typecheck` checks types). */

// office-addin-manifest depends on ES-module-only packages
// (strip-bom 5, uuid 13) that Node loads with require(esm) and Jest cannot: Jest gets those
// transpiled to CommonJS, unmodified otherwise.
const ESM_DEPENDENCIES = "/(office-addin-manifest|@microsoft/app-manifest)/node_modules/";

module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.tsx?$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.jest.json", diagnostics: false }],
    [`${ESM_DEPENDENCIES}.+\\.js$`]: [
      "ts-jest",
      { tsconfig: { allowJs: true, module: "commonjs" }, diagnostics: false },
    ],
  },
  transformIgnorePatterns: [`^(?!.*${ESM_DEPENDENCIES}).*/node_modules/`],
  testTimeout: 60000,
};
