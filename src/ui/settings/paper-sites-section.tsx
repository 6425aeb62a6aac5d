/**
 * "Recognize papers on these sites" in Settings and models: the publisher sites on which Assay
 * may recognize a paper as the page loads, count its candidate facts on the toolbar badge and
 * save it, so the side panel opens on it already captured (src/extension/paper-recognizer.ts).
 * Adding a site asks the browser for that site's host permission inside the click (a
 * permission request needs the reader's gesture; the manifest declares every http and https
 * host as an optional host permission, and nothing is granted at install); refused → the
 * site is not added and the section says so. Removing a site drops it from the list and gives
 * the permission back. Without a site listed, Assay reads a page only when the reader clicks
 * its toolbar button (activeTab).
 */
import { useEffect, useId, useState } from 'react';
import { browser } from 'wxt/browser';
import {
  COMMON_PUBLISHER_SITES,
  parseSiteInput,
  siteOfUrl,
  sitePermissionPattern,
  withoutPaperSite,
  withPaperSite,
} from '../../extension/paper-sites';
import { engineSettingsSetting, paperSitesSetting, readStoredSetting, type StoredValueArea } from '../../extension/stored-settings';
import { resolveTargetTabId } from '../../extension/target-tab';
import { useStoredValue } from '../shared/use-stored-value';
import { originPattern } from '../../llm/engines/openai-engine-kind';

/** What the section needs from the browser. */
export interface PaperSitesServices {
  /** Where the list is stored (`browser.storage.local`). */
  area: StoredValueArea;
  /** `browser.permissions.request({ origins })`: true when granted. Called inside the click. */
  requestOrigins(origins: string[]): Promise<boolean>;
  /** `browser.permissions.remove({ origins })`: true when removed (false or a rejection for a permission the extension must keep). */
  removeOrigins(origins: string[]): Promise<boolean>;
  /** The URL of the page the panel is for, undefined when the browser hides it (no activeTab, no host permission). */
  currentPageUrl(): Promise<string | undefined>;
  /**
   * Host permission patterns Assay still needs for something else — the model server of the
   * stored engine settings — whose permission a Remove must leave in place. Default: none.
   */
  originsInUse?(): Promise<string[]>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The section (see the module comment). */
export function PaperSitesSection({ services }: { services: PaperSitesServices }) {
  const id = useId();
  const { value: sites, loaded, update } = useStoredValue(services.area, paperSitesSetting);
  const [pageSite, setPageSite] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  const [message, setMessage] = useState<{ text: string; problem: boolean } | null>(null);

  useEffect(() => {
    let current = true;
    services.currentPageUrl().then(
      (url) => current && setPageSite(siteOfUrl(url)),
      () => current && setPageSite(null),
    );
    return () => {
      current = false;
    };
  }, [services]);

  /** Ask for `site`'s permission (no await before it: it must run in the click's call stack), then list it. */
  const add = (site: string, onAdded?: () => void) => {
    setMessage(null);
    services
      .requestOrigins([sitePermissionPattern(site)])
      .then(
        async (granted) => {
          if (!granted) {
            setMessage({ text: `The browser did not allow Assay to read pages on ${site}, so it was not added.`, problem: true });
            return;
          }
          await update((stored) => withPaperSite(stored, site));
          setMessage({ text: `Added ${site}: papers opened there are recognized as they load.`, problem: false });
          onAdded?.();
        },
        (error: unknown) => setMessage({ text: `Access to ${site} could not be asked for: ${messageOf(error)}`, problem: true }),
      )
      .catch((error: unknown) => setMessage({ text: `${site} could not be added: ${messageOf(error)}`, problem: true }));
  };

  const addTyped = () => {
    const parsed = parseSiteInput(typed);
    if (!parsed.ok) {
      setTypedProblem(parsed.message);
      return;
    }
    setTypedProblem(null);
    add(parsed.site, () => setTyped(''));
  };

  const remove = (site: string) => {
    setMessage(null);
    update((stored) => withoutPaperSite(stored, site))
      .then(async () => {
        // The list is what the recognizer obeys; a permission the extension must keep (or one
        // already withdrawn) is left to the browser, and so is one the model server needs.
        const pattern = sitePermissionPattern(site);
        const inUse = (await services.originsInUse?.().catch(() => [])) ?? [];
        if (inUse.includes(pattern)) {
          setMessage({
            text: `Removed ${site}: papers there are no longer recognized. Its access stays, since your model server is there.`,
            problem: false,
          });
          return;
        }
        await services.removeOrigins([pattern]).catch(() => false);
        setMessage({ text: `Removed ${site}: Assay reads its pages again only when you click the toolbar button.`, problem: false });
      })
      .catch((error: unknown) => setMessage({ text: `${site} could not be removed: ${messageOf(error)}`, problem: true }));
  };

  const offered = COMMON_PUBLISHER_SITES.filter((publisher) => !sites.includes(publisher.origin));
  const canAddPage = pageSite !== null && !sites.includes(pageSite);

  return (
    <section className="paper-sites" data-testid="paper-sites" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Recognize papers on these sites</h3>
      <p className="hint">
        On the sites you list here, Assay reads each page as it loads. When it is a paper, the toolbar button shows how many candidate facts
        the quick scan found, and the paper is saved in this browser so the side panel opens on it already captured. Elsewhere Assay reads a
        page only when you click its toolbar button.
      </p>
      {sites.length === 0 ? (
        <p data-testid="paper-sites-empty">{loaded ? 'No sites yet.' : 'Reading your sites…'}</p>
      ) : (
        <ul aria-label="Sites where papers are recognized" data-testid="paper-sites-list">
          {sites.map((site) => (
            <li key={site} data-site={site}>
              <code>{site}</code>{' '}
              <button type="button" onClick={() => remove(site)} aria-label={`Remove ${site}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {canAddPage && (
        <p className="actions">
          <button type="button" onClick={() => add(pageSite)} disabled={!loaded} data-testid="paper-sites-add-page">
            Add this site ({pageSite})
          </button>
        </p>
      )}
      <p className="field">
        <label htmlFor={`${id}-site`}>Another site’s address</label>
        <input
          id={`${id}-site`}
          type="url"
          placeholder="https://pubs.acs.org"
          value={typed}
          aria-invalid={typedProblem !== null}
          aria-describedby={typedProblem ? `${id}-site-problem` : undefined}
          onChange={(event) => setTyped(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') addTyped();
          }}
          data-testid="paper-sites-input"
        />
        {typedProblem && (
          <span id={`${id}-site-problem`} className="field-error">
            {typedProblem}
          </span>
        )}
      </p>
      <p className="actions">
        <button type="button" onClick={addTyped} disabled={!loaded} data-testid="paper-sites-add">
          Add site
        </button>
      </p>
      {offered.length > 0 && (
        <>
          <p className="hint" id={`${id}-common`}>
            Common publishers, one click each:
          </p>
          <ul className="paper-sites-common" aria-labelledby={`${id}-common`} data-testid="paper-sites-common">
            {offered.map((publisher) => (
              <li key={publisher.origin}>
                <button type="button" onClick={() => add(publisher.origin)} disabled={!loaded} aria-label={`Add ${publisher.name}`}>
                  {publisher.name}
                </button>{' '}
                <code>{publisher.origin}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {/* Always in the page, so screen readers announce each new message. */}
      <p className={message?.problem ? 'problem' : 'hint'} role="status" data-testid="paper-sites-message">
        {message?.text}
      </p>
    </section>
  );
}

/**
 * The section's services over the browser: `browser.storage.local`, `browser.permissions`, and
 * the URL of the panel's tab (`resolveTargetTabId(search)`, `browser.tabs.get`), visible when the
 * reader clicked the toolbar button on it (activeTab) or the site is granted already.
 */
export function browserPaperSitesServices(search: string): PaperSitesServices {
  return {
    area: browser.storage.local,
    requestOrigins: (origins) => browser.permissions.request({ origins }),
    removeOrigins: (origins) => browser.permissions.remove({ origins }),
    currentPageUrl: async () => (await browser.tabs.get(await resolveTargetTabId(search))).url,
    originsInUse: async () => {
      const engine = await readStoredSetting(engineSettingsSetting);
      return typeof engine.baseUrl === 'string' && URL.canParse(engine.baseUrl) ? [originPattern(engine.baseUrl)] : [];
    },
  };
}
