/**
 * Whether the pane runs inside Excel. Outside Office (a plain browser tab) Office.onReady reports
 * no host, and when office.js could not load at all there is no Office global; either way the pane
 * must say so within a few seconds instead of waiting forever.
 */

export type HostState =
  { kind: "excel" } | { kind: "other-host"; host: string } | { kind: "no-office"; reason: string };

interface OfficeLike {
  onReady?: (
    callback?: (info: { host: unknown; platform: unknown }) => void
  ) => Promise<{ host: unknown; platform: unknown }>;
}

export const OFFICE_WAIT_MS = 4000;

export function waitForOffice(
  timeoutMs = OFFICE_WAIT_MS,
  office: OfficeLike | undefined = officeGlobal()
): Promise<HostState> {
  if (!office || typeof office.onReady !== "function") {
    return Promise.resolve({
      kind: "no-office",
      reason: "Office.js did not load, so this page is not running inside Excel.",
    });
  }
  return new Promise<HostState>((resolve) => {
    const timer = setTimeout(
      () =>
        resolve({
          kind: "no-office",
          reason: `Office did not answer within ${(timeoutMs / 1000).toFixed(timeoutMs % 1000 ? 1 : 0)} s: this page is probably open outside Excel.`,
        }),
      timeoutMs
    );
    const done = (state: HostState) => {
      clearTimeout(timer);
      resolve(state);
    };
    try {
      // onReady also tells Office the page has initialised.
      office.onReady!((info) => {
        const host = info?.host == null ? "" : String(info.host);
        if (!host)
          done({
            kind: "no-office",
            reason: "This page is open outside Office (Office reports no host).",
          });
        else if (host.toLowerCase() === "excel") done({ kind: "excel" });
        else done({ kind: "other-host", host });
      });
    } catch (error) {
      done({
        kind: "no-office",
        reason: `Office failed to start: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  });
}

function officeGlobal(): OfficeLike | undefined {
  return (globalThis as { Office?: OfficeLike }).Office;
}

/** Whether Excel.run is available (inside Excel, or a test's recorded stand-in). */
export function hasExcel(): boolean {
  const excel = (globalThis as { Excel?: { run?: unknown } }).Excel;
  return !!excel && typeof excel.run === "function";
}

/**
 * Why this Excel cannot run the add-in's functions, when it lacks the shared runtime
 * (SharedRuntime 1.1) the manifest asks for; undefined when it has it or cannot say. Office installs the add-in only where they exist; this covers hosts that
 * open the pane anyway.
 */
export function missingRuntime(office: unknown = officeGlobal()): string | undefined {
  let requirements: { isSetSupported(name: string, version?: string): boolean } | undefined;
  try {
    requirements = (office as { context?: { requirements?: typeof requirements } } | undefined)
      ?.context?.requirements;
  } catch {
    return undefined;
  }
  if (!requirements || typeof requirements.isSetSupported !== "function") return undefined;
  // Only the shared runtime: where it exists this page hosts the functions, and a page outside it
  // cannot ask reliably about the functions' own runtime.
  if (requirements.isSetSupported("SharedRuntime", "1.1")) return undefined;
  return `This version of Excel lacks SharedRuntime 1.1, which Route Sheets needs: the ROUTE functions cannot run here, and this pane can only set the connection and search. Use Excel for Microsoft 365 (Windows or Mac, current channel), Excel 2021 or later, or Excel on the web.`;
}
