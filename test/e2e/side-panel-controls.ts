/**
 * Driving the side panel's run controls in e2e tests: the details under "Change" (property
 * picker, preset, engine) are folded by default, so a test opens them before it fills them.
 */
import type { Page } from 'playwright-core';

/** Unfold the run controls' details ("Change") if they are folded. */
export async function openRunDetails(panel: Page): Promise<void> {
  const toggle = panel.getByTestId('run-details-button');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

/** Choose the OpenAI-compatible engine at `baseUrl` with `models` (comma-separated), as a reader fills the form. */
export async function useModelServer(panel: Page, baseUrl: string, models: string): Promise<void> {
  await openRunDetails(panel);
  await panel.getByLabel('OpenAI-compatible server').check();
  await panel.getByTestId('engine-base-url').fill(baseUrl);
  await panel.getByTestId('engine-models').fill(models);
}

/** Add a property through the searchable picker: type `query`, pick the option labelled exactly `label`, close the list. */
export async function chooseProperty(panel: Page, query: string, label: string): Promise<void> {
  await openRunDetails(panel);
  const search = panel.getByRole('combobox', { name: 'Add a property' });
  await search.fill(query);
  await panel.getByRole('option', { name: label, exact: true }).click();
  await search.press('Escape');
}

/** The slice of the `chrome` global the engine-settings helpers use, inside an extension page. */
type StorageProbe = {
  chrome: {
    storage: { local: { get(key: string): Promise<Record<string, unknown>>; set(items: Record<string, unknown>): Promise<void> } };
  };
};

/** The stored engine settings (`assay:engine-settings` in storage.local), read from the extension page `panel`; undefined when none. */
export function readEngineSettings(panel: Page): Promise<unknown> {
  return panel.evaluate(async () => {
    const { chrome } = globalThis as unknown as StorageProbe;
    return (await chrome.storage.local.get('assay:engine-settings'))['assay:engine-settings'];
  });
}

/** Save `engine` as the reader's engine choice (`assay:engine-settings`), as the run form does, from the extension page `panel`. */
export function saveEngineSettings(panel: Page, engine: Record<string, unknown>): Promise<void> {
  return panel.evaluate(async (value) => {
    const { chrome } = globalThis as unknown as StorageProbe;
    await chrome.storage.local.set({ 'assay:engine-settings': value });
  }, engine);
}
