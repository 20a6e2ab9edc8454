/**
 * The Route options search form: reads the inputs into SearchFormValues, shows each error next to
 * its field (client-side checks and the service's problem details alike), suggests terminals while
 * the user types, lists the operators to require or exclude, and runs the search.
 */
import { distinctRoutings, DistinctRouting } from "../client/distinct-routings";
import { isApiError } from "../client/errors";
import { sharedClient } from "../client/shared";
import type { OperatorRecord, RouteOptionsAnswer, TerminalRecord } from "../client/types";
import { describeProblem } from "./connection-status";
import { byId, debounce, h, whileBusy } from "./dom";
import {
  BuiltSearch,
  emptySearchForm,
  FieldError,
  labelOf,
  MODALITY_CHOICES,
  placeTypeOf,
  resolvedLabel,
  resolveSearch,
  SearchFormValues,
  SearchParameter,
  serviceFieldError,
  SORT_CHOICES,
} from "./search-form";
import { noResultsMessage, searchSummary } from "./search-outcome";

export interface SearchViewEvents {
  /** A search answered: its options grouped into distinct routings (none: nothing found). */
  onResults(answer: RouteOptionsAnswer, routings: DistinctRouting[]): void;
}

/** Operator role values of the per-operator selects. */
const OPERATOR_ROLES = [
  { value: "", label: "Any" },
  { value: "allRequiredOperators", label: "Must be on route" },
  { value: "anyRequiredOperators", label: "One of these" },
  { value: "excludedOperators", label: "Exclude" },
] as const;

const TEXT_FIELDS = [
  "origin",
  "destination",
  "minDeparture",
  "maxDeparture",
  "maxArrival",
  "maxTransfers",
  "anyRequiredLocodes",
  "allRequiredLocodes",
  "excludedLocodes",
  "maxFirstMileTruckingKm",
  "maxLastMileTruckingKm",
  "sort",
  "maxEmission",
  "maxLeadTime",
] as const;

/** Where an error about a parameter is shown (the place types are detected from the place fields). */
function fieldElementId(field: SearchParameter): string {
  if (field === "originType") return "origin";
  if (field === "destinationType") return "destination";
  if (
    field === "allRequiredOperators" ||
    field === "anyRequiredOperators" ||
    field === "excludedOperators"
  )
    return "operators";
  return field;
}

export interface SearchView {
  setOperators(operators: OperatorRecord[]): void;
  loadOperators(): Promise<void>;
  values(): SearchFormValues;
}

export function initSearchView(events: SearchViewEvents): SearchView {
  const form = byId<HTMLFormElement>("search-form");
  const status = byId("search-status");
  const button = byId<HTMLButtonElement>("search");
  const section = byId("panel-search");
  const summary = byId("search-summary");

  /** Results first: the form folds into a one-line summary until the user changes the search. */
  const collapseForm = (text: string) => {
    form.hidden = true;
    byId("search-summary-text").textContent = text;
    summary.hidden = false;
  };
  const expandForm = () => {
    form.hidden = false;
    summary.hidden = true;
    byId<HTMLInputElement>("origin").focus();
  };
  byId("edit-search").addEventListener("click", expandForm);

  const modalityBox = byId("modalities");
  for (const m of MODALITY_CHOICES) {
    modalityBox.append(
      h(
        "label",
        { className: "check-label" },
        h("input", { type: "checkbox", name: "modalities", value: m }),
        m
      )
    );
  }
  const sort = byId<HTMLSelectElement>("sort");
  for (const s of SORT_CHOICES) sort.add(new Option(s.label, s.value));

  let operators: OperatorRecord[] = [];
  const operatorBox = byId("operator-list");
  const operatorNote = byId("operators-note");
  const setOperators = (list: OperatorRecord[]) => {
    operators = [...list].sort((a, b) => a.name.localeCompare(b.name));
    operatorBox.replaceChildren(
      ...operators.map((op, i) => {
        const select = h("select", {
          id: `operator-${i}`,
          "data-scac": op.scac,
          "aria-label": `${op.name} (${op.scac})`,
        });
        for (const r of OPERATOR_ROLES) select.add(new Option(r.label, r.value));
        return h(
          "div",
          { className: "operator-row" },
          h(
            "label",
            { for: `operator-${i}` },
            `${op.name} `,
            h("span", { className: "muted" }, op.scac)
          ),
          select
        );
      })
    );
    operatorNote.textContent = operators.length ? "" : "No operators listed.";
  };
  const loadOperators = async () => {
    operatorNote.textContent = "Loading operators…";
    try {
      setOperators(await sharedClient().operators());
    } catch (error) {
      operatorNote.textContent = `Operators unavailable: ${describeProblem(error)}`;
    }
  };
  byId("reload-operators").addEventListener("click", () => void loadOperators());

  const values = (): SearchFormValues => {
    const v = emptySearchForm();
    for (const f of TEXT_FIELDS)
      v[f] = (form.elements.namedItem(f) as HTMLInputElement | HTMLSelectElement).value;
    v.modalities = [
      ...form.querySelectorAll<HTMLInputElement>("input[name=modalities]:checked"),
    ].map((x) => x.value);
    v.directSeaOnly = (form.elements.namedItem("directSeaOnly") as HTMLInputElement).checked;
    for (const select of operatorBox.querySelectorAll<HTMLSelectElement>("select")) {
      const role = select.value as
        "" | "allRequiredOperators" | "anyRequiredOperators" | "excludedOperators";
      if (role) v[role].push(select.dataset.scac ?? "");
    }
    return v;
  };

  const clearErrors = () => {
    for (const el of form.querySelectorAll(".field-error")) el.textContent = "";
    for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  };
  const showErrors = (errors: FieldError[]) => {
    let first: HTMLElement | undefined;
    for (const e of errors) {
      const id = fieldElementId(e.field);
      const slot = document.getElementById(`${id}-error`);
      if (slot)
        slot.textContent = slot.textContent ? `${slot.textContent} ${e.message}` : e.message;
      const input = document.getElementById(id);
      if (input) {
        input.setAttribute("aria-invalid", "true");
        first ??= input;
      }
    }
    first?.focus();
  };

  initPlaceField("origin");
  initPlaceField("destination");

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    // The fields keep what the user typed ("busan" stays "busan"); the badges say what it is.
    let built: BuiltSearch;
    try {
      built = await resolveSearch(values(), sharedClient());
    } catch (error) {
      status.dataset.state = "error";
      status.textContent = describeProblem(error);
      return;
    }
    for (const f of ["origin", "destination"] as const) {
      const place = built.places?.[f];
      if (!place?.name) continue;
      const badge = byId(`${f}-type`);
      badge.textContent = resolvedLabel(place);
      badge.dataset.type = place.type;
    }
    if (!built.params) {
      status.dataset.state = "error";
      status.textContent = `Please correct ${built.errors.length === 1 ? "the field" : `${built.errors.length} fields`} marked above.`;
      showErrors(built.errors);
      return;
    }
    status.dataset.state = "busy";
    status.textContent = "Searching route options…";
    try {
      const answer = await whileBusy(section, button, () =>
        sharedClient().routeOptions(built.params!)
      );
      const routings = distinctRoutings(answer.results);
      const searched = values();
      if (answer.results.length) {
        status.dataset.state = "ok";
        status.textContent = `${routings.length} distinct routing${routings.length === 1 ? "" : "s"} (${answer.results.length} departure${answer.results.length === 1 ? "" : "s"}) found.`;
        collapseForm(searchSummary(searched, routings.length, answer.results.length));
      } else {
        // Not a success: said in the neutral "empty" state, with the reason.
        status.dataset.state = "empty";
        status.textContent = noResultsMessage(searched);
      }
      events.onResults(answer, routings);
    } catch (error) {
      // Worded (the look-up's "did you mean" may take a request) before the state says done.
      const fieldError = isApiError(error)
        ? await serviceFieldError(error, sharedClient()).catch(() => undefined)
        : undefined;
      status.dataset.state = "error";
      status.textContent = fieldError
        ? `The service refused ${labelOf(fieldError.field)}: see the marked field.`
        : describeProblem(error);
      if (fieldError) showErrors([fieldError]);
    }
  });

  return { setOperators, loadOperators, values };
}

/**
 * A place field: shows the detected type (LOCODE / TERMINAL / GEO) and suggests terminals of the
 * LOCODE typed so far ("NLRTM" lists Rotterdam's terminals, "NLRTM delta" narrows them by name).
 */
function initPlaceField(field: "origin" | "destination"): void {
  const input = byId<HTMLInputElement>(field);
  const typeBadge = byId(`${field}-type`);
  const list = byId<HTMLDataListElement>(`${field}-suggestions`);
  const names = new Map<string, TerminalRecord>();
  let asked = "";

  const showType = () => {
    const place = placeTypeOf(input.value);
    const terminal = place?.type === "TERMINAL" ? names.get(place.value) : undefined;
    typeBadge.textContent = place
      ? terminal
        ? `TERMINAL · ${terminal.name} (${terminal.locode})`
        : place.type
      : "";
    typeBadge.dataset.type = place?.type ?? "";
  };

  const suggest = debounce(async () => {
    const m = /^\s*([A-Za-z]{2}[A-Za-z2-9]{3})(?:\s+(.+?))?\s*$/.exec(input.value);
    if (!m) return;
    const locode = m[1].toUpperCase();
    const name = m[2] ?? "";
    const key = `${locode}|${name.toLowerCase()}`;
    if (key === asked) return;
    asked = key;
    input.setAttribute("aria-busy", "true");
    try {
      const terminals = await sharedClient().terminals({
        terminalLocode: locode,
        terminalName: name || undefined,
      });
      if (asked !== key) return; // the user typed on meanwhile
      for (const t of terminals) names.set(t.id, t);
      list.replaceChildren(
        ...terminals
          .slice(0, 30)
          .map((t) =>
            h(
              "option",
              { value: t.id, label: `${t.name} (${t.locode})` },
              `${t.name} (${t.locode})`
            )
          )
      );
      list.dataset.count = String(terminals.length);
    } catch {
      // Suggestions are a convenience: a failed lookup (no key yet, unknown code) just shows none.
      list.replaceChildren();
      list.dataset.count = "0";
    } finally {
      input.removeAttribute("aria-busy");
    }
  }, 300);

  input.addEventListener("input", () => {
    showType();
    suggest();
  });
  input.addEventListener("change", showType);
  showType();
}
