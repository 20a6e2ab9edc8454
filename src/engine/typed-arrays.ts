/** Growable typed-array buffers (heaps, search scratch): a copy twice as long. */
export function doubled<T extends Int32Array | Float64Array>(a: T): T {
  const out = new (a.constructor as { new (n: number): T })(a.length * 2);
  out.set(a);
  return out;
}
