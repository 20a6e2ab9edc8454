/**
 * Recalculating the workbook after the connection settings change, so ROUTE.* cells answer with
 * the new key or service at once. The ROUTE functions are not volatile, so only a full
 * recalculation reaches them: `application.calculate(full)` (ExcelApi 1.1). Where Office lacks it,
 * the pane names the way to do it by hand on this platform instead.
 */

interface OfficeRequirements {
  context?: {
    requirements?: { isSetSupported(name: string, version?: string): boolean };
    platform?: unknown;
  };
}

function office(): OfficeRequirements | undefined {
  return (globalThis as { Office?: OfficeRequirements }).Office;
}

/** Whether this Excel can recalculate from the pane (ExcelApi 1.1, which has Application.calculate). */
export function canRecalculate(): boolean {
  const excel = (globalThis as { Excel?: { run?: unknown } }).Excel;
  if (!excel || typeof excel.run !== "function") return false;
  const requirements = office()?.context?.requirements;
  // Without the requirements API there is no way to tell: try, and fall back on failure.
  return requirements ? requirements.isSetSupported("ExcelApi", "1.1") : true;
}

/** How to recalculate every formula by hand on `platform` (Office.context.platform: PC, Mac, OfficeOnline…). */
export function manualRecalculation(platform: unknown): string {
  switch (String(platform ?? "")) {
    case "PC":
      return "press Ctrl+Alt+F9 (recalculates every formula, ROUTE functions included)";
    case "Mac":
      return "choose Formulas → Calculate Now, then re-enter any ROUTE formula that kept its old value";
    case "OfficeOnline":
      return "choose Formulas → Calculation Options → Calculate Workbook";
    default:
      return "recalculate the workbook (Ctrl+Alt+F9 in Excel for Windows)";
  }
}

/** A full recalculation of the workbook (call inside Excel). */
export async function recalculateWorkbook(): Promise<void> {
  await Excel.run(async (context) => {
    context.workbook.application.calculate(Excel.CalculationType.full);
    await context.sync();
  });
}

/**
 * Recalculates when this Excel can; otherwise (or when it fails) says how to by hand.
 * Resolves to the sentence for the status line.
 */
export async function recalculateAfterChange(what: string): Promise<string> {
  const byHand = `${what} To refresh the ROUTE cells, ${manualRecalculation(office()?.context?.platform)}.`;
  if (!canRecalculate()) return byHand;
  try {
    await recalculateWorkbook();
    return `${what} The workbook was recalculated, so ROUTE cells use it now.`;
  } catch {
    return byHand;
  }
}
