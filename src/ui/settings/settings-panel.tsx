/**
 * "Settings and models", a collapsible section of the side panel: WebGPU in words, the WebLLM
 * roster with each model's size and whether it is downloaded (with "Delete from cache"), the GPU
 * memory budget, and the extension's storage use (models and dataset apart, where the browser
 * says) with "Delete all downloaded models" and "Keep my data (persistent storage)", whose state
 * is explained with the browser's last answer. Starting a download asks for persistent storage.
 * Everything is asked for when the section opens; a failed request is shown in words and never
 * stops the rest of the section.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { browser } from 'wxt/browser';
import type { ModelDownloadState, ResponseOf } from '../../contracts/messages';
import { downloadProgressText } from '../../llm/model-download';
import { downloadText, estimatedDownloadMB } from '../welcome/model-downloads';
import type { EngineSettings } from '../../contracts/matrix-run';
import type { EngineRegistry } from '../../llm/engines/registry';
import { rosterModelIds } from '../../llm/roster';
import { EngineFields, useEngineDraft } from '../shared/engine-fields';
import { LiteratureSettingsSection, type LiteratureSettingsServices } from './precedent-literature-section';
import { browserPaperSitesServices, PaperSitesSection, type PaperSitesServices } from './paper-sites-section';
import type { CustomWebLlmModel } from '../../contracts/webllm-model';
import {
  cacheText,
  customModelsOf,
  persistenceText,
  rosterModelRows,
  shownRoster,
  storageSplitText,
  storageText,
  vramText,
  type StorageEstimateFigures,
} from './settings-model';
import { askToKeepStorage } from '../../extension/keep-storage';
import {
  readStoredSetting,
  storagePersistenceSetting,
  type PersistenceOccasion,
  type StoragePersistence,
  type StoredValueArea,
} from '../../extension/stored-settings';
import { useEngineSettings } from './use-engine-settings';

/** The subset of `navigator.storage` (StorageManager) the section uses. */
export interface StorageFigures {
  estimate(): Promise<StorageEstimateFigures>;
  persist(): Promise<boolean>;
  persisted(): Promise<boolean>;
}

/** What the section asks the extension (each a `sendRequest`), and the browser's storage manager. */
export interface SettingsServices {
  checkWebGpu(): Promise<ResponseOf<'webgpu-check'>>;
  /** `customModels`: the reader's own WebLLM models the ids may name. */
  cacheStatus(modelIds: string[], customModels: CustomWebLlmModel[]): Promise<ResponseOf<'model-cache-status'>>;
  deleteFromCache(modelId: string, customModels: CustomWebLlmModel[]): Promise<ResponseOf<'model-cache-delete'>>;
  /** Unload every model from the GPU (the cache keeps them). */
  unloadModels(): Promise<ResponseOf<'model-unload'>>;
  /** Start (or resume), pause, or ask about the download of a model's weights; absent: no Download buttons. */
  downloadModel?(
    modelId: string,
    action: 'start' | 'pause' | 'status',
    customModels: CustomWebLlmModel[],
  ): Promise<ResponseOf<'model-download'>>;
  /** `navigator.storage`; absent where the browser has none. */
  storage?: StorageFigures;
  /** Where the last request for persistent storage is kept (`storagePersistenceSetting`); default browser.storage.local. */
  persistenceArea?: StoredValueArea;
}

type CacheModels = Extract<ResponseOf<'model-cache-status'>, { ok: true }>['models'];
type GpuState =
  { phase: 'idle' | 'checking' } | { phase: 'done'; summary: string; shaderF16: boolean } | { phase: 'failed'; message: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface SettingsPanelProps {
  services: SettingsServices;
  engine: EngineSettings;
  onEngineChange(engine: EngineSettings): void;
  /** Storage and permission requests for "Open literature"; without it that part is not shown. */
  literature?: LiteratureSettingsServices;
  /** The publisher sites where papers are recognized as they load; without it that part is not shown. */
  paperSites?: PaperSitesServices;
  /** The engine kinds whose settings inputs are shown (default: the engine registry of src/llm/engines/registry.ts). */
  engineRegistry?: EngineRegistry;
}

/** The section (see the module comment); `engine` carries the engine's settings such as the GPU budget (`gpuBudgetMB`). */
export function SettingsPanel({ services, engine, onEngineChange, literature, paperSites, engineRegistry }: SettingsPanelProps) {
  const id = useId();
  const [gpu, setGpu] = useState<GpuState>({ phase: 'idle' });
  const [cache, setCache] = useState<CacheModels | undefined>(undefined);
  const [cacheProblem, setCacheProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [unloading, setUnloading] = useState(false);
  const [storage, setStorage] = useState<string | null>(null);
  const [storageSplit, setStorageSplit] = useState<string | null>(null);
  const [persisted, setPersisted] = useState<boolean | null>(null);
  const [persistRecord, setPersistRecord] = useState<StoragePersistence | null>(null);
  const [persistNote, setPersistNote] = useState<string | null>(null);
  const [freeing, setFreeing] = useState<string | null>(null);
  const [downloads, setDownloads] = useState<Record<string, ModelDownloadState>>({});

  const shaderF16 = gpu.phase === 'done' && gpu.shaderF16;
  const { roster, own } = shownRoster(engine, shaderF16);
  const rows = rosterModelRows(roster, cache);

  /** The storage estimate in words, and the split by models and dataset where the browser gives it. */
  const readStorage = useCallback(() => {
    if (!services.storage) {
      setStorage('The browser gives no storage figures.');
      return;
    }
    services.storage.estimate().then(
      (estimate) => {
        setStorage(storageText(estimate));
        setStorageSplit(storageSplitText(estimate));
      },
      (error: unknown) => setStorage(`Storage use is not available: ${messageOf(error)}`),
    );
  }, [services]);

  /** Whether storage is persistent and the browser's last answer to Assay's request. */
  const readPersistence = useCallback(() => {
    services.storage?.persisted().then(setPersisted, () => setPersisted(null));
    readStoredSetting(storagePersistenceSetting, services.persistenceArea).then(setPersistRecord, () => setPersistRecord(null));
  }, [services]);

  /** Ask for persistent storage (askToKeepStorage), then show the answer; resolves to it. */
  const keepStorage = useCallback(
    async (occasion: PersistenceOccasion) => {
      const answer = await askToKeepStorage(services.storage, occasion, { area: services.persistenceArea });
      readPersistence();
      return answer;
    },
    [services, readPersistence],
  );

  /** Send a download action; its answer (or its failure, in words) becomes the row's state; a finished one marks the row cached. */
  const sendDownload = useCallback(
    (modelId: string, action: 'start' | 'pause' | 'status') => {
      const send = services.downloadModel;
      if (!send) return;
      if (action === 'start') void keepStorage('model-download');
      send(modelId, action, customModelsOf(engine)).then(
        (answer) => {
          const state: ModelDownloadState = answer.ok
            ? answer.download
            : { modelId, phase: 'failed', doneBytes: 0, totalBytes: 0, message: answer.failure.message };
          setDownloads((known) => ({ ...known, [modelId]: state }));
          if (state.phase === 'done') setCache((known) => known?.map((row) => (row.modelId === modelId ? { ...row, cached: true } : row)));
        },
        (error: unknown) =>
          setDownloads((known) => ({
            ...known,
            [modelId]: { modelId, phase: 'failed', doneBytes: 0, totalBytes: 0, message: messageOf(error) },
          })),
      );
    },
    [services, engine, keepStorage],
  );
  // While a download goes, ask for its progress twice a second.
  const going = Object.values(downloads)
    .filter((state) => state.phase === 'downloading')
    .map((state) => state.modelId)
    .join(' ');
  useEffect(() => {
    if (going === '') return;
    const timer = setInterval(() => going.split(' ').forEach((modelId) => sendDownload(modelId, 'status')), 500);
    return () => clearInterval(timer);
  }, [going, sendDownload]);

  const refresh = useCallback(() => {
    setGpu({ phase: 'checking' });
    setCacheProblem(null);
    services
      .checkWebGpu()
      .then(
        (answer): boolean => {
          if (!answer.ok) {
            setGpu({ phase: 'failed', message: answer.failure.message });
            return false;
          }
          const f16 = answer.capability.available && answer.capability.shaderF16;
          setGpu({ phase: 'done', summary: answer.summary, shaderF16: f16 });
          return f16;
        },
        (error: unknown) => {
          setGpu({ phase: 'failed', message: messageOf(error) });
          return false;
        },
      )
      .then((f16) => services.cacheStatus(rosterModelIds(shownRoster(engine, f16).roster), customModelsOf(engine)))
      .then(
        (answer) => {
          if (!answer.ok) return setCacheProblem(`The model cache could not be read: ${answer.failure.message}`);
          setCache(answer.models);
          // A download started earlier (another panel, or before this one closed) shows where it stands.
          for (const model of answer.models) if (!model.cached) sendDownload(model.modelId, 'status');
        },
        (error: unknown) => setCacheProblem(`The model cache could not be read: ${messageOf(error)}`),
      );
    readStorage();
    readPersistence();
  }, [services, engine, sendDownload, readStorage, readPersistence]);

  const onDelete = (modelId: string) => {
    setDeleting(modelId);
    setCacheProblem(null);
    services.deleteFromCache(modelId, customModelsOf(engine)).then(
      (answer) => {
        setDeleting(null);
        // The answer names only the deleted model: update its row and keep the others.
        if (answer.ok)
          setCache((rows) => [
            ...(rows ?? []).filter((row) => !answer.models.some((changed) => changed.modelId === row.modelId)),
            ...answer.models,
          ]);
        else setCacheProblem(`${modelId} could not be deleted: ${answer.failure.message}`);
      },
      (error: unknown) => {
        setDeleting(null);
        setCacheProblem(`${modelId} could not be deleted: ${messageOf(error)}`);
      },
    );
  };

  const onUnload = () => {
    setUnloading(true);
    setCacheProblem(null);
    services.unloadModels().then(
      (answer) => {
        setUnloading(false);
        if (answer.ok) setCache((rows) => rows?.map((row) => ({ ...row, loaded: false })));
        else setCacheProblem(`The models could not be unloaded: ${answer.failure.message}`);
      },
      (error: unknown) => {
        setUnloading(false);
        setCacheProblem(`The models could not be unloaded: ${messageOf(error)}`);
      },
    );
  };

  const onPersist = () => {
    setPersistNote(null);
    void keepStorage('button').then((answer) => {
      if (answer === 'unavailable') setPersistNote('Persistent storage could not be asked for: the browser did not answer.');
    });
  };

  /** Delete every downloaded model that is not loaded, one after another (`model-cache-delete`), then read the storage again. */
  const onFreeModels = async () => {
    const downloaded = rows.filter((row) => row.cached && !row.loaded).map((row) => row.modelId);
    setCacheProblem(null);
    for (const [index, modelId] of downloaded.entries()) {
      setFreeing(`Deleting ${modelId} (${index + 1} of ${downloaded.length})…`);
      const answer = await services
        .deleteFromCache(modelId, customModelsOf(engine))
        .catch((error: unknown) => ({ ok: false as const, failure: { message: messageOf(error) } }));
      if (!answer.ok) {
        setCacheProblem(`${modelId} could not be deleted: ${answer.failure.message}`);
        break;
      }
      setCache((known) => [
        ...(known ?? []).filter((row) => !answer.models.some((changed) => changed.modelId === row.modelId)),
        ...answer.models,
      ]);
    }
    setFreeing(null);
    readStorage();
  };
  const freeable = rows.filter((row) => row.cached && !row.loaded).length;

  return (
    <details className="settings" data-testid="settings-panel" onToggle={(event) => event.currentTarget.open && refresh()}>
      <summary>Settings and models</summary>

      <h3>WebGPU</h3>
      <p data-testid="webgpu-summary" data-phase={gpu.phase}>
        {gpu.phase === 'checking' && 'Checking WebGPU…'}
        {gpu.phase === 'done' && gpu.summary}
        {gpu.phase === 'failed' && `WebGPU could not be checked: ${gpu.message}`}
      </p>

      <h3>In-browser models (WebLLM)</h3>
      <p className="hint">
        {own
          ? 'Your roster.'
          : `The default roster for ${shaderF16 ? 'GPUs with' : 'GPUs without'} 16-bit float shaders (shader-f16)${gpu.phase === 'done' ? '' : ', until WebGPU is checked'}.`}
      </p>
      <ul className="models" data-testid="roster-models">
        {rows.map((row) => (
          <li
            key={row.modelId}
            data-testid={`model-${row.modelId}`}
            data-cached={row.cached === null ? undefined : String(row.cached)}
            data-loaded={String(row.loaded)}
          >
            <strong>{row.roles}</strong>: <code>{row.modelId}</code> · {vramText(row.vramMB)} · {cacheText(row.cached, row.loaded)}
            {row.cached === false && services.downloadModel && (
              <DownloadControls
                modelId={row.modelId}
                state={downloads[row.modelId]}
                onAction={(action) => sendDownload(row.modelId, action)}
              />
            )}
            {row.cached && !row.loaded && (
              <>
                {' '}
                <button
                  type="button"
                  onClick={() => onDelete(row.modelId)}
                  disabled={deleting !== null}
                  data-testid={`delete-model-${row.modelId}`}
                >
                  {deleting === row.modelId ? 'Deleting…' : 'Delete from cache'}
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {rows.some((row) => row.loaded) && (
        <p className="actions">
          <button type="button" onClick={onUnload} disabled={unloading} data-testid="unload-models">
            {unloading ? 'Unloading…' : 'Unload the models (free GPU memory)'}
          </button>
        </p>
      )}
      {cacheProblem && (
        <p className="problem" data-testid="model-cache-problem">
          {cacheProblem}
        </p>
      )}

      <EngineSettingsFields id={id} engine={engine} onEngineChange={onEngineChange} registry={engineRegistry} />

      {literature && <LiteratureSettingsSection services={literature} />}

      {paperSites && <PaperSitesSection services={paperSites} />}

      <h3>Storage</h3>
      <p data-testid="storage-usage">{storage ?? 'Reading storage use…'}</p>
      {storageSplit && <p data-testid="storage-split">{storageSplit}</p>}
      {freeable > 0 && (
        <p className="actions">
          <button
            type="button"
            onClick={() => void onFreeModels()}
            disabled={freeing !== null || deleting !== null}
            data-testid="free-models"
          >
            Delete all downloaded models ({freeable})
          </button>
        </p>
      )}
      <p role="status" aria-live="polite" data-testid="free-models-status">
        {freeing}
      </p>
      {services.storage && (
        <>
          <p className="actions">
            <button type="button" onClick={onPersist} data-testid="persist-button">
              Keep my data (persistent storage)
            </button>
          </p>
          <p data-testid="persist-status" aria-live="polite">
            {persistenceText(persisted, persistRecord)}
          </p>
          {persistNote && <p className="hint">{persistNote}</p>}
        </>
      )}
    </details>
  );
}

/**
 * A model's download in its row: "Download (about 805 MB)", then a progress bar with "120 MB of
 * 805 MB (14%)" and Pause; Resume after a pause; after a failure the reason in words and Resume
 * (the parts already fetched are kept).
 */
function DownloadControls({
  modelId,
  state,
  onAction,
}: {
  modelId: string;
  state: ModelDownloadState | undefined;
  onAction(action: 'start' | 'pause'): void;
}) {
  const phase = state?.phase ?? 'idle';
  const figures = state && state.totalBytes > 0 ? downloadProgressText(state) : null;
  return (
    <span className="model-download" data-testid={`download-${modelId}`} data-phase={phase}>
      {' '}
      {phase === 'idle' && (
        <button type="button" onClick={() => onAction('start')}>
          Download ({downloadText(estimatedDownloadMB(modelId))})
        </button>
      )}
      {phase === 'downloading' && (
        <button type="button" onClick={() => onAction('pause')}>
          Pause
        </button>
      )}
      {(phase === 'paused' || phase === 'failed') && (
        <button type="button" onClick={() => onAction('start')}>
          Resume
        </button>
      )}
      {phase !== 'idle' && phase !== 'done' && (
        <>
          {' '}
          <progress
            max={state && state.totalBytes > 0 ? state.totalBytes : undefined}
            value={state && state.totalBytes > 0 ? state.doneBytes : undefined}
            aria-label={`Download of ${modelId}`}
            aria-valuetext={figures ?? 'starting'}
          />
        </>
      )}
      <span role="status" aria-live="polite" data-testid={`download-status-${modelId}`}>
        {phase === 'downloading' && (figures ? ` Downloading: ${figures}` : ' Starting the download…')}
        {phase === 'paused' && ` Paused${figures ? ` at ${figures}` : ''}.`}
        {phase === 'done' && ' Downloaded.'}
      </span>
      {phase === 'failed' && state?.message && (
        <span className="field-error" data-testid={`download-error-${modelId}`}>
          {' '}
          {state.message}
        </span>
      )}
    </span>
  );
}

/** The engine's settings inputs (`EngineFields` with `placement="settings"`, e.g. the WebLLM GPU memory budget, `gpuBudgetMB`). */
function EngineSettingsFields({
  id,
  engine,
  onEngineChange,
  registry,
}: {
  id: string;
  engine: EngineSettings;
  onEngineChange(engine: EngineSettings): void;
  registry: EngineRegistry | undefined;
}) {
  const form = useEngineDraft(engine, onEngineChange, 'settings', registry);
  return <EngineFields id={id} form={form} />;
}

/** "Open literature" over `browser.storage.local` and `browser.permissions.request`. */
const browserLiteratureServices = (): LiteratureSettingsServices => ({
  area: browser.storage.local,
  requestOrigins: (origins) => browser.permissions.request({ origins }),
});

/** `SettingsPanel` over the stored engine settings (`useEngineSettings`, browser.storage.local) and the stored literature setting. */
export function LiveSettingsPanel({ services }: { services: SettingsServices }) {
  const { engine, setEngine } = useEngineSettings();
  const [literature] = useState(browserLiteratureServices);
  const [paperSites] = useState(() => browserPaperSitesServices(location.search));
  return <SettingsPanel services={services} engine={engine} onEngineChange={setEngine} literature={literature} paperSites={paperSites} />;
}
