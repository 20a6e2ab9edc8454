export * from "./via";
export * from "./time";
export * from "./eca";
export * from "./ets";
