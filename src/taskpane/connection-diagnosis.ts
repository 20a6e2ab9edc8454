/**
 * Why the pane cannot reach a service, in words a user can act on. A browser reports every network
 * failure as the same "Failed to fetch", so the cause is found by elimination:
 * - an http:// service from an https:// pane (not on this computer) is blocked as mixed content
 *   before any request is made;
 * - a request that fails while a no-cors request to the same URL gets an (opaque) answer means the
 *   server answers but does not allow this pane's origin (CORS);
 * - both failing means nothing answered over a usable connection: for a service on this computer
 *   the pane's own server says whether anything listens on that port (listening: the HTTPS
 *   certificate is not trusted; not listening: the server is down); elsewhere the two stay
 *   together, with the one check that separates them.
 */

export type UnreachableCause =
  "mixed" | "cors" | "certificate" | "down" | "down-or-certificate" | "intermittent";

export interface Diagnosis {
  cause: UnreachableCause;
  message: string;
}

export interface DiagnosisDeps {
  /** The pane's own URL (location.href). */
  pageUrl: string;
  /** fetch (the page's own). */
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
  /**
   * Whether something listens on this computer's `port` (the pane's server answers for its own
   * machine only); undefined when that cannot be known.
   */
  listening?: (port: number) => Promise<boolean | undefined>;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname.toLowerCase()) || hostname.toLowerCase().endsWith(".localhost");
}

/** Browsers block http:// requests from an https:// page unless they go to this computer. */
export function isMixedContent(pageUrl: string, serviceUrl: string): boolean {
  const page = new URL(pageUrl);
  const service = new URL(serviceUrl);
  return (
    page.protocol === "https:" && service.protocol === "http:" && !isLoopbackHost(service.hostname)
  );
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

export function mixedContentMessage(serviceUrl: string): string {
  const https = serviceUrl.replace(/^http:/, "https:");
  return `${serviceUrl} is http:// but this pane is loaded over https://, so the browser blocks every request to it (mixed content): use the service's https:// address (${https}).`;
}

/** The cause of a failed request to `baseUrl` (call only after a request failed with no answer). */
export async function diagnoseUnreachable(
  baseUrl: string,
  deps: DiagnosisDeps
): Promise<Diagnosis> {
  if (isMixedContent(deps.pageUrl, baseUrl))
    return { cause: "mixed", message: mixedContentMessage(baseUrl) };
  const service = new URL(baseUrl);
  const probeUrl = `${baseUrl.replace(/\/+$/, "")}/health`;
  const answers = async (init: RequestInit) => {
    try {
      await deps.fetch(probeUrl, { ...init, cache: "no-store", credentials: "omit" });
      return true;
    } catch {
      return false;
    }
  };
  if (await answers({ mode: "cors" }))
    return {
      cause: "intermittent",
      message: `${baseUrl} did not answer a moment ago but answers now: test again.`,
    };
  if (await answers({ mode: "no-cors" })) {
    const origin = new URL(deps.pageUrl).origin;
    return {
      cause: "cors",
      message: `${baseUrl} answers, but does not allow requests from this pane (CORS): the service must send Access-Control-Allow-Origin for ${origin} (route-sheets serve --cors-origin ${origin}).`,
    };
  }
  const https = service.protocol === "https:";
  if (isLoopbackHost(service.hostname) && deps.listening) {
    const listening = await deps.listening(defaultPort(service)).catch(() => undefined);
    if (listening === true && https)
      return {
        cause: "certificate",
        message: `A server is running at ${baseUrl}, but this computer does not trust its HTTPS certificate: install and trust it (for the Office development certificate: npx office-addin-dev-certs install), then test again.`,
      };
    if (listening === false)
      return {
        cause: "down",
        message: `Nothing is running at ${baseUrl} (port ${defaultPort(service)} is closed): start the service (npm start), or check the port.`,
      };
  }
  if (!https)
    return {
      cause: "down",
      message: `Nothing answers at ${baseUrl}: the server is down, the address or port is wrong, or a firewall blocks it.`,
    };
  return {
    cause: "down-or-certificate",
    message: `No answer from ${baseUrl}: either the server is down (or the address is wrong), or this computer does not trust its HTTPS certificate. Open ${probeUrl} in a browser: a certificate warning means the certificate; "can't be reached" means the server.`,
  };
}
