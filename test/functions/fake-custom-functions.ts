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
