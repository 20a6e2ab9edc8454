/**
 * Stands in for the object `build` makes, building it at the first access to any of its members
 * (methods stay bound to it), so it can be handed over before it exists. Members in `known` (and
 * the `prototype`, for instanceof) are answered without building it.
 */
export function onFirstUse<T extends object>(
  build: () => T,
  ahead: { known?: Partial<Record<keyof T, unknown>>; prototype?: object } = {}
): T {
  const known: Partial<Record<PropertyKey, unknown>> = ahead.known ?? {};
  let real: T | undefined;
  const bound = new Map<PropertyKey, unknown>();
  const target = (): T => (real ??= build());
  return new Proxy({} as T, {
    get(_, key) {
      if (key in known) return known[key];
      const obj = target();
      const value = Reflect.get(obj, key, obj) as unknown;
      if (typeof value !== "function") return value;
      let fn = bound.get(key);
      if (!fn) bound.set(key, (fn = (value as (...a: unknown[]) => unknown).bind(obj)));
      return fn;
    },
    has: (_, key) => key in known || Reflect.has(target(), key),
    getPrototypeOf: () => ahead.prototype ?? Reflect.getPrototypeOf(target()),
  });
}
