/** Public surface of the route service. */
export { buildApp, BuildAppOptions, SERVICE_VERSION } from "./app";
export {
  DEFAULT_CONFIG,
  DEFAULT_COSTS,
  makeConfig,
  ServiceConfig,
  CostTable,
  Operation,
  RateLimitSetting,
} from "./config";
export { createAccountWithKey, findKey, CreateAccountInput, CreatedAccount } from "./accounts";
export {
  Store,
  Tier,
  Pool,
  AccountState,
  KeyRecord,
  UsageRow,
  Charge,
  NewAccount,
  NewKey,
} from "./store/store";
export { SqliteStore, DB_FILE } from "./store/sqlite";
export { Problem } from "./problem";
export { startService, ServeOptions, RunningService } from "./server";
