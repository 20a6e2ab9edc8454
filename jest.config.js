/** Jest runs the TypeScript sources directly (transpile-only for speed; `npm run typecheck` checks types). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.tsx?$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.jest.json", diagnostics: false }],
  },
  moduleNameMapper: {
    // office-addin-mock pulls in office-addin-manifest, which needs the internet; a local stub stands in.
    "^office-addin-manifest$": "<rootDir>/test/support/office-addin-manifest-stub.js",
  },
  testTimeout: 60000,
};
