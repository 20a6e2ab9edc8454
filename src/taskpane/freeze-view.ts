/** The "Freeze as values" card: asks once to confirm, then pins every ROUTE formula to its value. */
import { byId, whileBusy } from "./dom";
import { freezeRouteFormulas } from "./freeze";

export function initFreezePanel(excel: boolean): void {
  const button = byId<HTMLButtonElement>("freeze");
  const cancel = byId<HTMLButtonElement>("freeze-cancel");
  const status = byId("freeze-status");
  const reset = () => {
    button.dataset.confirm = "";
    button.textContent = "Freeze as values";
    cancel.hidden = true;
  };
  cancel.addEventListener("click", () => {
    reset();
    status.textContent = "";
  });
  button.addEventListener("click", async () => {
    if (!excel) {
      status.dataset.state = "error";
      status.textContent =
        "Freezing needs Excel: open this pane from the Route Sheets button in Excel.";
      return;
    }
    if (button.dataset.confirm !== "yes") {
      // Undo cannot bring the formulas back: one more click to be sure.
      button.dataset.confirm = "yes";
      button.textContent = "Yes, freeze every ROUTE formula";
      cancel.hidden = false;
      status.dataset.state = "";
      status.textContent = "This replaces the ROUTE formulas of every sheet by their values.";
      return;
    }
    reset();
    status.dataset.state = "busy";
    status.textContent = "Freezing the ROUTE formulas…";
    try {
      const result = await whileBusy(byId("freeze-panel"), button, () =>
        Excel.run((context) => freezeRouteFormulas(context))
      );
      status.dataset.state = "ok";
      status.textContent = result.formulas
        ? `Froze ${result.formulas} ROUTE formula${result.formulas === 1 ? "" : "s"} (${result.cells} cell${result.cells === 1 ? "" : "s"}) on ${result.sheets.map((s) => `"${s}"`).join(", ")}: the workbook now holds their values.`
        : "No ROUTE formulas in this workbook: nothing to freeze.";
    } catch (error) {
      status.dataset.state = "error";
      status.textContent = `Could not freeze: ${error instanceof Error ? error.message : String(error)}`;
    }
  });
}
