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
  // On Jest's fake clock: it gives up at exactly its 300 ms limit, whatever the machine's speed.
  jest.useFakeTimers({ now: 0 });
  let settledAt = -1;
  const pending = waitForOffice(300, { onReady: () => new Promise(() => undefined) }).then(
    (r) => ((settledAt = Date.now()), r)
  );
  await jest.advanceTimersByTimeAsync(1000);
  jest.useRealTimers();
  const late = await pending;
  expect(settledAt).toBe(300);
  expect(late).toEqual({
    kind: "no-office",
    reason: "Office did not answer within 0.3 s: this page is probably open outside Excel.",
  });
});
