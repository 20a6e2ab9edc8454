/**
 * What the Excel that runs the functions supports, asked at run time: the manifest asks for
 * CustomFunctionsRuntime 1.2 only, so newer features (data types: entity cards and formatted
 * numbers, 1.4) are used only where Office says they are there. Outside Office: none.
 */
interface OfficeLike {
  context?: { requirements?: { isSetSupported(name: string, minVersion?: string): boolean } };
}

export function runtimeSupports(set: string, version: string): boolean {
  try {
    const office = (globalThis as { Office?: OfficeLike }).Office;
    return office?.context?.requirements?.isSetSupported(set, version) === true;
  } catch {
    return false;
  }
}

/** Entity values and formatted number values returned by custom functions. */
export function supportsDataTypes(): boolean {
  return runtimeSupports("CustomFunctionsRuntime", "1.4");
}
