/**
 * The Connection tab's "Getting started" card: three formulas to type in a cell (each answered by
 * this server's built-in data) and the key's credits left in both pools (GET /account extension).
 */
import { isApiError } from "../client/errors";
import type { AccountInfo } from "../client/types";
import { describeProblem } from "./connection-status";
import { byId, h } from "./dom";

export const EXAMPLE_FORMULAS = [
  { formula: '=ROUTE.DISTANCE("CNSHA", "NLRTM")', what: "km by sea, Shanghai to Rotterdam" },
  { formula: '=ROUTE.EMISSIONS("CNSHA", "NLRTM")', what: "kg CO2e per TEU of that trip" },
  { formula: '=ROUTE.PASSAGES("CNSHA", "NLRTM")', what: "the canals and straits it passes" },
] as const;

const count = (n: number) => n.toLocaleString("en-US");

/** The account's balances in words, one line per pool. */
export function accountLines(account: AccountInfo): { information: string; optimizer: string } {
  return {
    information: count(account.credits.routeInformation),
    optimizer: account.optimizerAccess
      ? count(account.credits.routeOptimizer)
      : `${count(account.credits.routeOptimizer)} (no route-optimizer access)`,
  };
}

/** Why there are no balances to show. */
export function accountProblem(error: unknown): string {
  if (isApiError(error) && (error.status === 404 || error.status === 405))
    return "This service does not report balances (it has no GET /account).";
  return `Credits unknown: ${describeProblem(error)}`;
}

export interface FirstRunCard {
  /** Shows the balances of the key the account() call uses, or why not. */
  showAccount(account: () => Promise<AccountInfo>, hasKey: boolean): Promise<void>;
}

export function initFirstRunCard(): FirstRunCard {
  byId("examples").replaceChildren(
    ...EXAMPLE_FORMULAS.map((e) =>
      h("li", {}, h("code", {}, e.formula), h("span", { className: "hint" }, e.what))
    )
  );
  const table = byId("account");
  const status = byId("account-status");
  let asked = 0;
  return {
    async showAccount(account, hasKey) {
      const call = ++asked;
      if (!hasKey) {
        table.hidden = true;
        status.textContent = "Enter your API key and press Save to see its credits.";
        return;
      }
      status.textContent = "Asking for the key's credits…";
      try {
        const info = await account();
        if (call !== asked) return; // a newer key was saved meanwhile
        const lines = accountLines(info);
        byId("credits-information").textContent = lines.information;
        byId("credits-optimizer").textContent = lines.optimizer;
        table.hidden = false;
        table.dataset.account = info.name;
        status.textContent = `Account "${info.name}" (${info.tier}${info.active ? "" : ", inactive"}).`;
      } catch (error) {
        if (call !== asked) return;
        table.hidden = true;
        status.textContent = accountProblem(error);
      }
    },
  };
}
