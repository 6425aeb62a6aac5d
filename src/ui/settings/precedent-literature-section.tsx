/**
 * "Open literature" in Settings and models: turn on the search of Crossref, arXiv and OpenAlex
 * for precedent checks the local sources cannot answer, with a contact e-mail (required) and an
 * optional OpenAlex API key. Turning it on asks for the three provider hosts in the click (a
 * permission request needs the user's gesture); refused → it stays off and says so.
 */
import { useEffect, useId, useState } from 'react';
import { literatureSettingsSetting, type StoredValueArea } from '../../extension/stored-settings';
import { LITERATURE_ORIGINS, literatureSettingsToEnable } from './precedent-literature-settings';
import { useStoredValue } from '../shared/use-stored-value';

/** What the section needs: where the setting is stored, and `permissions.request`. */
export interface LiteratureSettingsServices {
  area: StoredValueArea;
  /** `browser.permissions.request({ origins })`: true when granted. */
  requestOrigins(origins: string[]): Promise<boolean>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The section (see the module comment). */
export function LiteratureSettingsSection({ services }: { services: LiteratureSettingsServices }) {
  const id = useId();
  const { value: settings, loaded, setValue } = useStoredValue(services.area, literatureSettingsSetting);
  const [mailto, setMailto] = useState('');
  const [openAlexKey, setOpenAlexKey] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    setMailto(settings.mailto);
    setOpenAlexKey(settings.openAlexKey ?? '');
  }, [settings]);

  const turnOn = () => {
    const next = literatureSettingsToEnable(mailto, openAlexKey);
    if (!next.ok) {
      setMessage(next.message);
      return;
    }
    setMessage(null);
    // No await before the request: it must run in the click's call stack.
    services
      .requestOrigins([...LITERATURE_ORIGINS])
      .then(
        (granted) => {
          if (!granted) {
            setMessage('The browser did not allow Assay to reach Crossref, arXiv and OpenAlex, so the open literature stays off.');
            return;
          }
          return setValue(next.settings);
        },
        (error: unknown) =>
          setMessage(`Access to Crossref, arXiv and OpenAlex could not be asked for: ${messageOf(error)}. The open literature stays off.`),
      )
      .catch((error: unknown) => setMessage(`The setting could not be saved: ${messageOf(error)}`));
  };
  const turnOff = () => {
    setMessage(null);
    setValue({ enabled: false, mailto: mailto.trim(), ...(openAlexKey.trim() ? { openAlexKey: openAlexKey.trim() } : {}) }).catch(
      (error: unknown) => setMessage(`The setting could not be saved: ${messageOf(error)}`),
    );
  };

  return (
    <div className="literature-settings" data-testid="literature-settings" data-enabled={String(settings.enabled)}>
      <h3>Open literature</h3>
      <p className="hint">
        When your reference tables and dataset do not answer a precedent check, search Crossref, arXiv and OpenAlex and let your model
        engine judge the abstracts. Only values quoted from a retrieved abstract are kept.
      </p>
      <p className="field">
        <label htmlFor={`${id}-mailto`}>Contact e-mail</label>
        <input
          id={`${id}-mailto`}
          type="email"
          value={mailto}
          disabled={settings.enabled}
          aria-describedby={`${id}-mailto-hint`}
          onChange={(event) => setMailto(event.currentTarget.value)}
          data-testid="literature-mailto"
        />
        <span id={`${id}-mailto-hint`} className="hint">
          Required. Crossref asks callers to name a contact so they can be served from its &ldquo;polite pool&rdquo; (faster, and Crossref
          can write to you instead of blocking you). It is sent to Crossref with each search, and nowhere else.
        </span>
      </p>
      <p className="field">
        <label htmlFor={`${id}-openalex`}>OpenAlex API key (optional)</label>
        <input
          id={`${id}-openalex`}
          type="password"
          autoComplete="off"
          value={openAlexKey}
          disabled={settings.enabled}
          aria-describedby={`${id}-openalex-hint`}
          onChange={(event) => setOpenAlexKey(event.currentTarget.value)}
          data-testid="literature-openalex-key"
        />
        <span id={`${id}-openalex-hint`} className="hint">
          Stored only in this browser&rsquo;s extension storage and sent only to OpenAlex. Without one, OpenAlex serves at its free rate.
        </span>
      </p>
      <p className="actions">
        <label>
          <input
            type="checkbox"
            checked={settings.enabled}
            disabled={!loaded}
            onChange={(event) => (event.currentTarget.checked ? turnOn() : turnOff())}
            data-testid="literature-enabled"
          />{' '}
          Search the open literature for precedent checks
        </label>
      </p>
      <p className="hint" data-testid="literature-status">
        {settings.enabled ? `On: searching as ${settings.mailto}.` : 'Off: precedent checks use your reference tables and dataset only.'}
      </p>
      {message && (
        <p className="problem" role="alert" data-testid="literature-problem">
          {message}
        </p>
      )}
    </div>
  );
}
