/** Host detection: Excel, another Office host, Office reporting no host, no answer, no Office at all. */
import { waitForOffice } from "../../src/taskpane/office-host";

const office = (host: unknown, delayMs = 0) => ({
  onReady: (cb?: (info: { host: unknown; platform: unknown }) => void) => {
    const info = { host, platform: null };
    return new Promise<typeof info>((resolve) =>
      setTimeout(() => {
        cb?.(info);
        resolve(info);
      }, delayMs)
    );
  },
});

test("Excel, other hosts, and Office.js loaded outside Office (host null)", async () => {
  expect(await waitForOffice(1000, office("Excel"))).toEqual({ kind: "excel" });
  expect(await waitForOffice(1000, office("Word"))).toEqual({ kind: "other-host", host: "Word" });
  expect(await waitForOffice(1000, office(null))).toEqual({
    kind: "no-office",
    reason: "This page is open outside Office (Office reports no host).",
  });
});

test("no Office global, or onReady that never answers: a clear reason, within the time limit", async () => {
  expect((await waitForOffice(1000, undefined)).kind).toBe("no-office");
  const started = Date.now();
  const late = await waitForOffice(300, { onReady: () => new Promise(() => undefined) });
  expect(Date.now() - started).toBeLessThan(1000);
  expect(late).toEqual({
    kind: "no-office",
    reason: "Office did not answer within 0.3 s: this page is probably open outside Excel.",
  });
});
