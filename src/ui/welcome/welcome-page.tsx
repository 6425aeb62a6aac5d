/**
 * The welcome page, opened once when Assay is installed (entrypoints/welcome/): what Assay does,
 * where the reader's data is kept, the engine choice (WebLLM's download per role for this
 * browser's GPU, or a model server), and the bundled example article to try it all offline.
 * The engine chosen here is the stored engine setting the side panel starts runs with.
 */
import { useEffect, useId, useState } from 'react';
import type { ResponseOf } from '../../contracts/messages';
import type { EngineSettings } from '../../contracts/matrix-run';
import { defaultWebLlmRoster, rosterModelIds } from '../../llm/roster';
import { EngineFields, useEngineDraft } from '../shared/engine-fields';
import { vramText } from '../settings/settings-model';
import { downloadText, modelDownloads } from './model-downloads';

/** What the page asks the extension, and where its links go. */
export interface WelcomeServices {
  /** The `webgpu-check` request (the offscreen document's WebGPU adapter). */
  checkWebGpu(): Promise<ResponseOf<'webgpu-check'>>;
  /** The `model-cache-status` request: GPU memory and whether each model is downloaded. */
  cacheStatus(modelIds: string[]): Promise<ResponseOf<'model-cache-status'>>;
  /** URL of the bundled example article (`runtime.getURL('/example.html')`). */
  exampleUrl: string;
  /** URL of the dataset page. */
  datasetUrl: string;
}

export interface WelcomePageProps {
  services: WelcomeServices;
  /** The stored engine setting and its setter (`useEngineSettings`). */
  engine: EngineSettings;
  onEngineChange(engine: EngineSettings): void;
}

type GpuState =
  | { phase: 'checking' }
  | { phase: 'known'; summary: string; available: boolean; shaderF16: boolean }
  | { phase: 'failed'; message: string };

/** The whole welcome page (see the module comment). */
export function WelcomePage({ services, engine, onEngineChange }: WelcomePageProps) {
  const id = useId();
  const gpu = useWebGpu(services);
  const form = useEngineDraft(engine, onEngineChange, 'run');
  return (
    <main className="welcome">
      <h1>Welcome to Assay</h1>
      <p className="lead">
        Assay reads the materials papers you open — on a publisher’s site or as a PDF — finds the reported material, property, value and
        unit, has small language models check each fact against the paper, and keeps the ones you trust, each with the paper’s DOI and the
        sentence that shows it.
      </p>

      <section aria-labelledby={`${id}-how`}>
        <h2 id={`${id}-how`}>What it does</h2>
        <ol className="steps">
          <li>
            <strong>Capture.</strong> On a paper, click the Assay button in the toolbar. The side panel opens and reads the page.
          </li>
          <li>
            <strong>Extract.</strong> Pick the properties you care about (band gap, T<sub>c</sub>, lattice constants…) and press Start.
            Several small models propose values, search for better answers and cross-examine each other; every fact is highlighted in the
            page with its status.
          </li>
          <li>
            <strong>Review.</strong> Accept, edit or reject each fact — with the mouse, or with the keys <kbd>a</kbd>, <kbd>e</kbd>,{' '}
            <kbd>r</kbd> and <kbd>j</kbd>/<kbd>k</kbd> to move.
          </li>
          <li>
            <strong>Keep.</strong> “Save verified” adds the facts to your dataset, which you can search, plot and export as CSV, JSON or
            BibTeX.
          </li>
        </ol>
      </section>

      <section aria-labelledby={`${id}-data`}>
        <h2 id={`${id}-data`}>Your data stays in this browser</h2>
        <p>
          Papers, runs and your dataset are kept only in this browser’s storage on this computer. Assay has no account and no server of its
          own. What you read stays here unless you choose one of two things: a model server (below), which is sent the paper’s text, or the
          open-literature search of precedent checks (off until you turn it on in Settings), which sends the material and property you ask
          about to Crossref, arXiv and OpenAlex. Models for this browser are downloaded once from their public host; nothing is sent with
          them. You can export everything from the dataset page at any time.
        </p>
      </section>

      <section aria-labelledby={`${id}-engine`}>
        <h2 id={`${id}-engine`}>Choose how the models run</h2>
        <p>
          <strong>In this browser (WebLLM).</strong> The models are downloaded once, kept in the browser’s cache, and run on your graphics
          card with WebGPU. Nothing is sent anywhere.
        </p>
        <div role="status" aria-live="polite" data-testid="welcome-webgpu" data-phase={gpu.phase}>
          {gpu.phase === 'checking' && <p>Checking this browser’s WebGPU…</p>}
          {gpu.phase === 'known' && <p>{gpu.summary}</p>}
          {gpu.phase === 'failed' && <p className="problem">WebGPU could not be checked: {gpu.message}</p>}
        </div>
        {gpu.phase === 'known' && gpu.available && <ModelDownloadTable services={services} shaderF16={gpu.shaderF16} />}
        {gpu.phase === 'known' && !gpu.available && (
          <p className="note">Without WebGPU the models cannot run in this browser: choose a model server instead.</p>
        )}
        <p>
          <strong>On a model server.</strong> If you run Ollama, LM Studio, llama.cpp or vLLM (on this computer or your group’s), choose
          “OpenAI-compatible server” and give its address: runs are faster, and the paper’s text goes to that server only. Assay asks the
          browser for access to that one address when you start a run.
        </p>
        <form className="welcome-engine" onSubmit={(event) => event.preventDefault()} noValidate>
          <EngineFields id={id} form={form} />
        </form>
        <p className="hint">Your choice is saved as you make it; you can change it any time in the side panel.</p>
      </section>

      <section aria-labelledby={`${id}-try`}>
        <h2 id={`${id}-try`}>Try it on an example</h2>
        <p>
          An example article ships with Assay, so you can try the whole path without the network: open it, click the Assay button in the
          toolbar, capture it, run an extraction and review what it finds.
        </p>
        <p>
          <a className="button-link" href={services.exampleUrl} target="_blank" rel="noopener" data-testid="open-example-article">
            Open the example article
          </a>{' '}
          <a href={services.datasetUrl} target="_blank" rel="noopener">
            Open your dataset
          </a>
        </p>
      </section>
    </main>
  );
}

/** The WebGPU check, asked once when the page opens. */
function useWebGpu(services: WelcomeServices): GpuState {
  const [state, setState] = useState<GpuState>({ phase: 'checking' });
  useEffect(() => {
    let live = true;
    services.checkWebGpu().then(
      (answer) => {
        if (!live) return;
        if (!answer.ok) return setState({ phase: 'failed', message: answer.failure.message });
        const { capability, summary } = answer;
        setState({ phase: 'known', summary, available: capability.available, shaderF16: capability.available && capability.shaderF16 });
      },
      (error: unknown) => live && setState({ phase: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [services]);
  return state;
}

/** The default roster for this GPU, one row per model with its roles, estimated download and GPU memory. */
function ModelDownloadTable({ services, shaderF16 }: { services: WelcomeServices; shaderF16: boolean }) {
  const roster = defaultWebLlmRoster(shaderF16);
  const [status, setStatus] = useState<Extract<ResponseOf<'model-cache-status'>, { ok: true }>['models'] | undefined>();
  useEffect(() => {
    let live = true;
    services.cacheStatus(rosterModelIds(defaultWebLlmRoster(shaderF16))).then(
      (answer) => live && answer.ok && setStatus(answer.models),
      () => undefined, // the table still shows the estimates
    );
    return () => {
      live = false;
    };
  }, [services, shaderF16]);
  const { rows, totalDownloadMB } = modelDownloads(roster, status);
  return (
    <table className="model-downloads" data-testid="welcome-models">
      <caption>
        The models a run loads on this GPU{shaderF16 ? '' : ' (it lacks 16-bit shaders, so the smaller 32-bit builds are used)'}. First run
        downloads {downloadText(totalDownloadMB)} in all.
      </caption>
      <thead>
        <tr>
          <th scope="col">Role</th>
          <th scope="col">Model</th>
          <th scope="col">Download</th>
          <th scope="col">GPU memory</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.modelId} data-model={row.modelId}>
            <td>{row.roles}</td>
            <th scope="row">{row.modelId}</th>
            <td>{row.cached ? 'already downloaded' : downloadText(row.downloadMB)}</td>
            <td>{row.vramMB === null ? '—' : vramText(row.vramMB)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
