/** Small DOM helpers for the pane's views. */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`Task pane element #${id} is missing`);
  return el as T;
}

/** Creates an element with attributes and children (strings become text nodes, never HTML). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Array<Node | string | null | undefined | false>
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === "className") el.className = String(value);
    else el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return el;
}

/** Marks a region busy (spinner via CSS, aria-busy for screen readers) and disables a button while work runs. */
export async function whileBusy<T>(
  region: HTMLElement,
  button: HTMLButtonElement | null,
  work: () => Promise<T>
): Promise<T> {
  region.setAttribute("aria-busy", "true");
  if (button) button.disabled = true;
  try {
    return await work();
  } finally {
    region.removeAttribute("aria-busy");
    if (button) button.disabled = false;
  }
}

export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number
): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
