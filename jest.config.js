/** Jest runs the TypeScript sources directly (transpile-only for speed; `npm run typecheck` checks types). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.tsx?$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.jest.json", diagnostics: false }],
  },
  testTimeout: 60000,
};
