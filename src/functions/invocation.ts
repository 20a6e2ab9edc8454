/** Excel's invocation of a custom function: value previews (which must not spend) and cancelation. */

/** Shown instead of a value while Excel previews a formula: previews must not spend credits. */
export const PREVIEW_MESSAGE = "Preview: press Enter to compute";

/** The part of CustomFunctions.Invocation the functions read. */
export interface InvocationLike {
  isInValuePreview?: boolean | string;
  /** Set by Excel on @cancelable functions: called when the user or Excel stops the call. */
  onCanceled?: () => void;
}

export function isPreview(invocation: InvocationLike | null | undefined): boolean {
  const flag = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}

/** Settles with `work`, or rejects when Excel cancels a @cancelable call (the answer still fills the cache). */
export function cancelable<T>(
  invocation: InvocationLike | undefined,
  work: Promise<T>
): Promise<T> {
  // Excel calls onCanceled only on @cancelable functions; setting it elsewhere is harmless.
  if (!invocation) return work;
  return new Promise<T>((resolve, reject) => {
    invocation.onCanceled = () => reject(new Error("Canceled"));
    work.then(resolve, reject);
  });
}
