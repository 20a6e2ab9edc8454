/**
 * The results: one button per route option (lead time, transfers, CO2e, modalities, operators,
 * dates), the legs and map of the selected one, and "Insert into sheet".
 */
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

/** Options listed at once; the table written to the sheet always has all of them. */
export const PAGE_SIZE = 8;

export interface ResultsView {
  show(answer: RouteOptionsAnswer): void;
  setExcelAvailable(available: boolean): void;
}

export function initResultsView(): ResultsView {
  const section = byId("results");
  const list = byId("results-list");
  const detail = byId("option-detail");
  const insertButton = byId<HTMLButtonElement>("insert");
  const target = byId<HTMLSelectElement>("insert-target");
  const insertStatus = byId("insert-status");
  const more = byId<HTMLButtonElement>("more-results");
  let options: RouteOption[] = [];
  let selected = -1;
  let shown = 0;

  /** Lists the next page of options (a long list would bury the legs and the map). */
  const showMore = () => {
    const next = options.slice(shown, shown + PAGE_SIZE);
    const start = shown;
    list.append(
      ...next.map((o, i) =>
        h(
          "li",
          {},
          optionButton(o, start + i, () => select(start + i))
        )
      )
    );
    shown += next.length;
    more.hidden = shown >= options.length;
    more.textContent = `Show ${Math.min(PAGE_SIZE, options.length - shown)} more (${options.length} found)`;
  };
  more.addEventListener("click", () => {
    const first = shown;
    showMore();
    list.querySelector<HTMLButtonElement>(`button.option[data-index="${first}"]`)?.focus();
  });
  let excel = hasExcel();

  const select = (index: number, focus = false) => {
    selected = index;
    for (const b of list.querySelectorAll<HTMLButtonElement>("button.option")) {
      const on = Number(b.dataset.index) === index;
      b.setAttribute("aria-pressed", String(on));
      if (on && focus) b.focus();
    }
    showDetail(detail, options[index], index);
  };

  list.addEventListener("keydown", (event) => {
    // Arrow keys move between options, as in a list box; Tab leaves the list.
    if (!options.length || (event.key !== "ArrowDown" && event.key !== "ArrowUp")) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(shown - 1, selected + (event.key === "ArrowDown" ? 1 : -1)));
    select(next, true);
  });

  insertButton.addEventListener("click", async () => {
    if (!options.length) return;
    const where: SheetTarget = target.value === "active" ? { kind: "active" } : { kind: "new" };
    insertStatus.dataset.state = "busy";
    insertStatus.textContent = "Writing the tables…";
    try {
      const result = await whileBusy(section, insertButton, () =>
        Excel.run((context) => writeRouteTables(context, options, where))
      );
      insertStatus.dataset.state = "ok";
      insertStatus.textContent = `Inserted ${result.options.name} (${result.options.rows} options, ${result.options.address}) and ${result.legs.name} (${result.legs.rows} legs, ${result.legs.address}) on sheet "${result.sheetName}".`;
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
    show(answer) {
      options = answer.results;
      section.hidden = false;
      insertStatus.textContent = "";
      list.replaceChildren();
      shown = 0;
      showMore();
      if (options.length) select(0);
      else detail.replaceChildren();
      updateInsert();
    },
    setExcelAvailable(available) {
      excel = available;
      updateInsert();
    },
  };
}

function optionButton(option: RouteOption, index: number, onClick: () => void): HTMLButtonElement {
  const ops = operatorsOf(option);
  const button = h(
    "button",
    { type: "button", className: "option", "data-index": String(index), "aria-pressed": "false" },
    h(
      "span",
      { className: "option-head" },
      h("strong", {}, `Option ${index + 1}`),
      h("span", { className: "lead" }, formatDuration(option.leadTimeInMinutes))
    ),
    h(
      "span",
      { className: "option-facts" },
      h("span", {}, formatTransfers(option.transfers)),
      h("span", {}, `${formatKg(option.emissionsInKgCo2e)} CO2e`),
      h("span", {}, modalitiesOf(option).join(" › "))
    ),
    h("span", { className: "option-route" }, stopsOf(option).join(" → ")),
    ops.length ? h("span", { className: "option-ops muted" }, ops.join(", ")) : null,
    h(
      "span",
      { className: "option-dates muted" },
      `${formatDate(firstDeparture(option))} → ${formatDate(lastArrival(option))}`
    )
  );
  button.addEventListener("click", onClick);
  return button;
}

function showDetail(container: HTMLElement, option: RouteOption, index: number): void {
  const legs = h(
    "ol",
    { className: "legs", "aria-label": `Legs of option ${index + 1}` },
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
            `${formatKg(leg.emissionsInKgCo2e)} CO2e`,
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
    h("dt", {}, "Lead time"),
    h("dd", {}, formatDuration(option.leadTimeInMinutes)),
    h("dt", {}, "Latest drop-off"),
    h("dd", {}, formatDate(option.latestDropOff)),
    h("dt", {}, "Earliest pick-up"),
    h("dd", {}, formatDate(option.earliestPickup)),
    h("dt", {}, "CO2e"),
    h(
      "dd",
      {},
      `${formatKg(option.emissionsInKgCo2e)} (transfers ${formatKg(option.transferEmissionsInKgCo2e)})`
    ),
    h("dt", {}, "Trucking"),
    h(
      "dd",
      {},
      `${formatKm(option.truckToOriginInMeters)} to origin, ${formatKm(option.truckToDestinationInMeters)} from destination`
    )
  );
  const mapBox = h("div", { id: "map", className: "map" });
  container.replaceChildren(h("h3", {}, `Option ${index + 1}`), facts, legs, mapBox);
  // The arcs are already drawn; a failure while adding the routed paths leaves them.
  showRoutedMap(mapBox, option, index).catch(() => undefined);
}
