/** The part of autocannon's API the service benchmarks use (the package ships no types). */
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

type Autocannon = (
  options: { url: string; duration: number; connections: number; headers: Record<string, string> },
  done: (err: Error | null, result: AutocannonResult) => void
) => unknown;

export const autocannon = require("autocannon") as Autocannon;
