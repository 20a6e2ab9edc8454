/**
 * "Freeze as values": replaces every ROUTE.* formula of the workbook by the value it shows now
 * (a spilled answer by its whole spill), so a colleague without the add-in opens the workbook and
 * sees the numbers instead of #NAME?. Formulas that do not call a ROUTE function are left alone.
 */

/** Whether a cell's formula calls a ROUTE function (=ROUTE.DISTANCE(…), =2*ROUTE.LANE(…)…). */
export function callsRoute(formula: unknown): boolean {
  if (typeof formula !== "string" || !formula.startsWith("=")) return false;
  // Text in quotes is not a call: ="ROUTE.DISTANCE(" stays a formula.
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""');
  return /(^|[^A-Za-z0-9_.])ROUTE\.[A-Za-z][A-Za-z0-9_.]*\s*\(/i.test(code);
}

/** Row and column (within the range) of each cell whose formula calls a ROUTE function. */
export function routeFormulaCells(formulas: unknown[][]): Array<[number, number]> {
  const cells: Array<[number, number]> = [];
  formulas.forEach((row, r) =>
    row.forEach((formula, c) => {
      if (callsRoute(formula)) cells.push([r, c]);
    })
  );
  return cells;
}

export interface FreezeResult {
  /** ROUTE formulas replaced. */
  formulas: number;
  /** Cells now holding values (a spilled answer counts every cell of its spill). */
  cells: number;
  /** Names of the sheets that had any. */
  sheets: string[];
}

function spillSupported(): boolean {
  const requirements = (
    globalThis as {
      Office?: { context?: { requirements?: { isSetSupported(n: string, v?: string): boolean } } };
    }
  ).Office?.context?.requirements;
  return requirements ? requirements.isSetSupported("ExcelApi", "1.12") : false;
}

/** Freezes the whole workbook; call inside `Excel.run`. Three round trips. */
export async function freezeRouteFormulas(context: Excel.RequestContext): Promise<FreezeResult> {
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  await context.sync();

  // Round trip 2: every sheet's formulas.
  const used = sheets.items.map((sheet) => {
    const range = sheet.getUsedRangeOrNullObject();
    // eslint-disable-next-line office-addins/no-navigational-load
    range.load("isNullObject,formulas,rowIndex,columnIndex");
    return { sheet, range };
  });
  await context.sync();

  // Round trip 3: the values (and spills) of the ROUTE cells.
  const spills = spillSupported();
  const targets: Array<{ sheet: string; range: Excel.Range; spill?: Excel.Range }> = [];
  for (const { sheet, range } of used) {
    if (range.isNullObject) continue;
    for (const [r, c] of routeFormulaCells(range.formulas)) {
      const cell = sheet.getCell(range.rowIndex + r, range.columnIndex + c);
      cell.load("values");
      const spill = spills ? cell.getSpillingToRangeOrNullObject() : undefined;

      spill?.load("isNullObject,values");
      targets.push({ sheet: sheet.name, range: cell, spill });
    }
  }
  if (!targets.length) return { formulas: 0, cells: 0, sheets: [] };
  await context.sync();

  // Last round trip: the values written over the formulas.
  let cells = 0;
  for (const t of targets) {
    const range = t.spill && !t.spill.isNullObject ? t.spill : t.range;
    const values = range.values;
    range.values = values;
    cells += values.reduce((n, row) => n + row.length, 0);
  }
  await context.sync();
  return { formulas: targets.length, cells, sheets: [...new Set(targets.map((t) => t.sheet))] };
}
