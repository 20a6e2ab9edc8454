/** A stand-in for Excel's CustomFunctions global (Error + ErrorCode), installed on globalThis. */
export class FakeExcelError {
  constructor(
    readonly code: string,
    readonly message?: string
  ) {}
}

export function installCustomFunctions(): void {
  (globalThis as unknown as { CustomFunctions: unknown }).CustomFunctions = {
    Error: FakeExcelError,
    ErrorCode: {
      invalidValue: "#VALUE!",
      notAvailable: "#N/A",
      divisionByZero: "#DIV/0!",
      invalidNumber: "#NUM!",
      nullReference: "#NULL!",
    },
    associate: () => undefined,
  };
}

/**
 * Runs `run` as in Excel with CustomFunctionsRuntime 1.4 (data types, formatted numbers): a stand-in
 * Office global answering its requirement sets, removed again after.
 */
export async function withCustomFunctionsRuntime14<T>(run: () => Promise<T>): Promise<T> {
  const g = globalThis as { Office?: unknown };
  g.Office = {
    context: {
      requirements: {
        isSetSupported: (set: string, v: string) =>
          set === "CustomFunctionsRuntime" && Number(v) <= 1.4,
      },
    },
  };
  try {
    return await run();
  } finally {
    delete g.Office;
  }
}

/** ROUTE.EMISSIONS' optional lane arguments as Excel passes them when the formula leaves them out. */
export const EMISSIONS_LEFT_OUT = {
  modality: null,
  per: null,
  containerType: null,
  fuelType: null,
  vesselInfo: null,
  avoid: null,
};
