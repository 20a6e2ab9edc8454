/**
 * The pane follows Office's theme: dark when Office's own background is dark
 * (Office.context.officeTheme, which follows the user's Office theme, "Use system setting"
 * included), else the system's colour scheme (prefers-color-scheme: outside Office, or where
 * Office does not report its theme). The colours themselves are CSS variables in taskpane.html,
 * switched by `data-theme` on the root element.
 */

export type ThemeName = "light" | "dark";

interface OfficeTheme {
  bodyBackgroundColor?: string;
}

/** Relative luminance (WCAG) of #rgb / #rrggbb, or undefined for anything else. */
export function luminance(color: string): number | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return undefined;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Dark or light by Office's body background; undefined when Office does not say. */
export function officeThemeName(theme: OfficeTheme | undefined): ThemeName | undefined {
  const l = theme?.bodyBackgroundColor ? luminance(theme.bodyBackgroundColor) : undefined;
  if (l === undefined) return undefined;
  // Black on it contrasts better than white above ~0.18: a light background.
  return l < 0.18 ? "dark" : "light";
}

/** The theme to show: Office's when it reports one, else the system's. */
export function chooseTheme(office: OfficeTheme | undefined, systemDark: boolean): ThemeName {
  return officeThemeName(office) ?? (systemDark ? "dark" : "light");
}

interface OfficeGlobal {
  context?: {
    officeTheme?: OfficeTheme;
    document?: { addHandlerAsync?(type: unknown, handler: () => void): void };
  };
  EventType?: { OfficeThemeChanged?: unknown };
}

function officeTheme(): OfficeTheme | undefined {
  try {
    return (globalThis as { Office?: OfficeGlobal }).Office?.context?.officeTheme;
  } catch {
    // Office.context throws before Office.onReady in some hosts.
    return undefined;
  }
}

let systemListener = false;
let officeListener = false;

/**
 * Applies the theme now and whenever Office's theme or the system's scheme changes; called again
 * once Office is ready (its theme and events exist only then), it adds no listener twice.
 */
export function initTheme(root: HTMLElement = document.documentElement): ThemeName {
  const media =
    typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : undefined;
  const apply = () => {
    const theme = chooseTheme(officeTheme(), !!media?.matches);
    root.dataset.theme = theme;
    return theme;
  };
  if (!systemListener && media?.addEventListener) {
    systemListener = true;
    media.addEventListener("change", apply);
  }
  try {
    const office = (globalThis as { Office?: OfficeGlobal }).Office;
    const event = office?.EventType?.OfficeThemeChanged;
    const document = office?.context?.document;
    if (!officeListener && event && document?.addHandlerAsync) {
      officeListener = true;
      document.addHandlerAsync(event, apply);
    }
  } catch {
    // Hosts without the theme event keep the theme they started with.
  }
  return apply();
}
