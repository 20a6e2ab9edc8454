/**
 * The results, chosen routing first: its facts and map, then "Insert" (all options, each table on
 * a sheet of its own or at the selected cell), then its legs, then every distinct routing (same
 * legs, services and transfer ports; the client's distinctRoutings) with its next departure and
 * how often it sails, expandable to every departure.
 */
import type { DistinctRouting } from "../client/distinct-routings";
import type { RouteOption, RouteOptionsAnswer } from "../client/types";
import { byId, h, whileBusy } from "./dom";
import {
  firstDeparture,
  formatDate,
  formatDuration,
  formatKg,
  formatKm,
  formatTransfers,
  lastArrival,
  legOperators,
  modalitiesOf,
  operatorsOf,
  stopsOf,
} from "./format";
import { showRoutedMap } from "./map-view";
import { hasExcel } from "./office-host";
import { SheetTarget, writeRouteTables } from "./table-writer";

/** Routings listed at once; the table written to the sheet always has every option. */
export const PAGE_SIZE = 8;

export interface ResultsView {
  show(answer: RouteOptionsAnswer, routings: DistinctRouting[]): void;
  setExcelAvailable(available: boolean): void;
}

export function initResultsView(): ResultsView {
  const section = byId("results");
  const list = byId("results-list");
  const detail = byId("option-detail");
  const legsBox = byId("option-legs");
  const insertButton = byId<HTMLButtonElement>("insert");
  const target = byId<HTMLSelectElement>("insert-target");
  const insertStatus = byId("insert-status");
  const more = byId<HTMLButtonElement>("more-results");
  let options: RouteOption[] = [];
  let routings: DistinctRouting[] = [];
  let selected = -1;
  let shown = 0;

  /** Lists the next page of routings (a long list would bury the legs and the map). */
  const showMore = () => {
    const start = shown;
    const next = routings.slice(shown, shown + PAGE_SIZE);
    list.append(...next.map((r, i) => routingItem(r, start + i, select)));
    shown += next.length;
    more.hidden = shown >= routings.length;
    more.textContent = `Show ${Math.min(PAGE_SIZE, routings.length - shown)} more (${routings.length} routings)`;
  };
  more.addEventListener("click", () => {
    const first = shown;
    showMore();
    list.querySelector<HTMLButtonElement>(`button.option[data-index="${first}"]`)?.focus();
  });
  let excel = hasExcel();

  /** Selects departure `departure` (0: the next one) of routing `index`. */
  const select = (index: number, departure = 0, focus = false) => {
    selected = index;
    for (const b of list.querySelectorAll<HTMLButtonElement>("button.option")) {
      const on = Number(b.dataset.index) === index;
      b.setAttribute("aria-pressed", String(on));
      if (on && focus) b.focus();
    }
    for (const b of list.querySelectorAll<HTMLButtonElement>("button.departure"))
      b.setAttribute(
        "aria-pressed",
        String(Number(b.dataset.routing) === index && Number(b.dataset.departure) === departure)
      );
    showDetail(detail, legsBox, routings[index], index, departure);
  };

  list.addEventListener("keydown", (event) => {
    // Arrow keys move between routings, as in a list box; Tab reaches the departures and leaves.
    const onRouting = (event.target as HTMLElement).matches("button.option");
    if (!routings.length || !onRouting || (event.key !== "ArrowDown" && event.key !== "ArrowUp"))
      return;
    event.preventDefault();
    const next = Math.max(0, Math.min(shown - 1, selected + (event.key === "ArrowDown" ? 1 : -1)));
    select(next, 0, true);
  });

  insertButton.addEventListener("click", async () => {
    if (!options.length) return;
    const where: SheetTarget = target.value === "cell" ? { kind: "cell" } : { kind: "sheets" };
    insertStatus.dataset.state = "busy";
    insertStatus.textContent = "Writing the tables…";
    try {
      const result = await whileBusy(section, insertButton, () =>
        Excel.run((context) => writeRouteTables(context, options, where))
      );
      insertStatus.dataset.state = "ok";
      insertStatus.textContent = `Inserted ${result.options.name} (${result.options.rows} options, "${result.options.sheet}" ${result.options.address}) and ${result.legs.name} (${result.legs.rows} legs, "${result.legs.sheet}" ${result.legs.address}).`;
    } catch (error) {
      insertStatus.dataset.state = "error";
      insertStatus.textContent = `Could not insert: ${error instanceof Error ? error.message : String(error)}`;
    }
  });

  const updateInsert = () => {
    insertButton.disabled = !excel || !options.length;
    byId("insert-note").textContent = excel
      ? ""
      : "Inserting tables needs Excel: open this pane from the Route Sheets button in Excel.";
  };

  return {
    show(answer, distinct) {
      options = answer.results;
      routings = distinct;
      // Nothing found: the status line says why; no empty results block under it.
      section.hidden = !options.length;
      insertStatus.textContent = "";
      list.replaceChildren();
      shown = 0;
      showMore();
      if (routings.length) {
        select(0);
        byId("results-title").focus();
      } else {
        detail.replaceChildren();
        legsBox.replaceChildren();
      }
      updateInsert();
    },
    setExcelAvailable(available) {
      excel = available;
      updateInsert();
    },
  };
}

/** A routing: its next departure as a button, and the list of all its departures behind a toggle. */
function routingItem(
  routing: DistinctRouting,
  index: number,
  select: (index: number, departure?: number) => void
): HTMLLIElement {
  const option = routing.next;
  const ops = operatorsOf(option);
  const count = routing.departures.length;
  const button = h(
    "button",
    { type: "button", className: "option", "data-index": String(index), "aria-pressed": "false" },
    h(
      "span",
      { className: "option-head" },
      h("strong", {}, `Routing ${index + 1}`),
      h("span", { className: "lead" }, formatDuration(option.leadTimeInMinutes))
    ),
    h(
      "span",
      { className: "option-facts" },
      h("span", {}, formatTransfers(option.transfers)),
      h("span", {}, `${formatKg(option.emissionsInKgCo2e)} CO2e per TEU`),
      h("span", {}, modalitiesOf(option).join(" › "))
    ),
    h("span", { className: "option-route" }, stopsOf(option).join(" → ")),
    ops.length ? h("span", { className: "option-ops muted" }, ops.join(", ")) : null,
    h(
      "span",
      { className: "option-dates muted" },
      `Next: ${formatDate(firstDeparture(option))} → ${formatDate(lastArrival(option))} · ${routing.frequency}${count > 1 ? `, ${count} departures` : ""}`
    )
  );
  button.addEventListener("click", () => select(index));
  const item = h("li", { className: "routing", "data-routing": String(index) }, button);
  if (count < 2) return item;

  const listId = `departures-${index}`;
  const departures = h(
    "ol",
    {
      className: "departures",
      id: listId,
      hidden: true,
      "aria-label": `Departures of routing ${index + 1}`,
    },
    ...routing.departures.map((d, j) => {
      const b = h(
        "button",
        {
          type: "button",
          className: "departure",
          "data-routing": String(index),
          "data-departure": String(j),
          "aria-pressed": "false",
        },
        `${formatDate(firstDeparture(d))} → ${formatDate(lastArrival(d))} · ${formatDuration(d.leadTimeInMinutes)}`
      );
      b.addEventListener("click", () => select(index, j));
      return h("li", {}, b);
    })
  );
  const toggle = h(
    "button",
    {
      type: "button",
      className: "departures-toggle",
      "aria-expanded": "false",
      "aria-controls": listId,
    },
    `All ${count} departures (${routing.frequency})`
  );
  toggle.addEventListener("click", () => {
    const open = departures.hidden;
    departures.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
  });
  item.append(toggle, departures);
  return item;
}

function showDetail(
  container: HTMLElement,
  legsBox: HTMLElement,
  routing: DistinctRouting,
  index: number,
  departure: number
): void {
  const option = routing.departures[departure];
  const legs = h(
    "ol",
    { className: "legs", id: "legs-list", "aria-label": `Legs of routing ${index + 1}` },
    ...option.legs.map((leg, i) =>
      h(
        "li",
        { className: "leg-item", "data-modality": leg.modality },
        h(
          "div",
          { className: "leg-head" },
          h("strong", {}, `${leg.origin} → ${leg.destination}`),
          h("span", { className: "badge" }, leg.modality)
        ),
        h(
          "div",
          { className: "muted" },
          `${formatDate(leg.departureDate)} → ${formatDate(leg.arrivalDate)}`
        ),
        h(
          "div",
          {},
          [
            legOperators(leg),
            leg.vessel?.name ? `vessel ${leg.vessel.name}` : "",
            formatKm(leg.distanceInMeters),
            `${formatKg(leg.emissionsInKgCo2e)} CO2e per TEU`,
          ]
            .filter(Boolean)
            .join(" · ")
        ),
        leg.originTerminals?.length || leg.destinationTerminals?.length
          ? h(
              "div",
              { className: "muted" },
              `${(leg.originTerminals ?? []).map((t) => t.name).join(", ") || leg.origin} → ${(leg.destinationTerminals ?? []).map((t) => t.name).join(", ") || leg.destination}`
            )
          : null,
        h("span", { className: "visually-hidden" }, `Leg ${i + 1}`)
      )
    )
  );
  const facts = h(
    "dl",
    { className: "facts" },
    h("dt", {}, "Route"),
    h("dd", {}, stopsOf(option).join(" → ")),
    h("dt", {}, "Lead time"),
    h(
      "dd",
      {},
      `${formatDuration(option.leadTimeInMinutes)} · ${formatTransfers(option.transfers)} · ${modalitiesOf(option).join(" › ")}`
    ),
    h("dt", {}, "Departs"),
    h("dd", {}, `${formatDate(firstDeparture(option))} → ${formatDate(lastArrival(option))}`),
    h("dt", {}, "CO2e per TEU"),
    h(
      "dd",
      {},
      `${formatKg(option.emissionsInKgCo2e)} (transfers ${formatKg(option.transferEmissionsInKgCo2e)})`
    )
  );
  const more = h(
    "dl",
    { className: "facts" },
    h("dt", {}, "Latest drop-off"),
    h("dd", {}, formatDate(option.latestDropOff)),
    h("dt", {}, "Earliest pick-up"),
    h("dd", {}, formatDate(option.earliestPickup)),
    h("dt", {}, "Trucking"),
    h(
      "dd",
      {},
      `${formatKm(option.truckToOriginInMeters)} to origin, ${formatKm(option.truckToDestinationInMeters)} from destination`
    )
  );
  const mapBox = h("div", { id: "map", className: "map" });
  const count = routing.departures.length;
  container.replaceChildren(
    h(
      "h3",
      {},
      `Routing ${index + 1}${count > 1 ? `, departure ${departure + 1} of ${count}` : ""}`
    ),
    facts,
    mapBox
  );
  legsBox.replaceChildren(
    h("h3", {}, `Legs (${option.legs.length})`),
    legs,
    h("details", {}, h("summary", {}, "Drop-off, pick-up and trucking"), more)
  );
  // The arcs are already drawn; a failure while adding the routed paths leaves them.
  showRoutedMap(mapBox, option, index).catch(() => undefined);
}
