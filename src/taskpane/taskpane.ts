/**
 * Minimal task pane: API key, service URL (presets: this server, Routescanner Connect, custom) and
 * cache statistics. It shares the settings store and client with the custom functions.
 */
import { BASE_URL_PRESETS, pageOrigin } from '../client/settings';
import { sharedClient, sharedSettings } from '../client/shared';

function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function presetOf(baseUrl: string): string {
  if (baseUrl === pageOrigin()) return 'this-server';
  const preset = BASE_URL_PRESETS.find((p) => p.url === baseUrl);
  return preset ? preset.id : 'custom';
}

function showStats(): void {
  const s = sharedClient().cacheStats();
  byId('stats').textContent = `Cache: ${s.entries} answers, ${s.hits} hits, ${s.requestsSaved} requests saved, ${s.requestsSent} requests sent.`;
}

async function init(): Promise<void> {
  const form = byId<HTMLFormElement>('settings-form');
  const keyInput = byId<HTMLInputElement>('api-key');
  const preset = byId<HTMLSelectElement>('base-url-preset');
  const urlInput = byId<HTMLInputElement>('base-url');
  const status = byId('status');
  for (const p of BASE_URL_PRESETS) preset.add(new Option(p.label, p.id));

  const current = await sharedSettings().get();
  keyInput.value = current.apiKey;
  preset.value = presetOf(current.baseUrl);
  urlInput.value = current.baseUrl;
  const syncUrl = () => {
    const chosen = BASE_URL_PRESETS.find((p) => p.id === preset.value);
    urlInput.disabled = preset.value !== 'custom';
    if (preset.value === 'this-server') urlInput.value = pageOrigin();
    else if (chosen?.url) urlInput.value = chosen.url;
  };
  preset.addEventListener('change', syncUrl);
  syncUrl();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await sharedSettings().save({
        apiKey: keyInput.value,
        baseUrl: preset.value === 'this-server' ? '' : urlInput.value,
      });
      status.textContent = 'Saved. Recalculate (Ctrl+Alt+F9) to refresh ROUTE functions.';
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error);
    }
  });
  byId('clear-cache').addEventListener('click', () => {
    sharedClient().clearCache();
    showStats();
  });
  showStats();
  setInterval(showStats, 2000);
}

function start(): void {
  init().catch((error) => {
    byId('status').textContent = `Could not start: ${error instanceof Error ? error.message : String(error)}`;
  });
}

// Office.onReady also tells Office the page has initialised; outside Office the page works on its own.
if (typeof Office !== 'undefined' && typeof Office.onReady === 'function') Office.onReady(() => start());
else start();
