/**
 * The one-screen model-server setup the run controls show when the reader has chosen no engine
 * and WebLLM cannot run here (no WebGPU, or too small a GPU: `chooseRunEngine`): why, then
 * Ollama and LM Studio side by side, each with the commands to run and its base URL and model
 * prefilled, and "Use this server", which saves an OpenAI-compatible engine as the reader's
 * choice. Text only (React), labelled inputs, the reason in a status line.
 */
import { useId, useState, type FormEvent } from 'react';
import type { EngineSettings } from '../../contracts/matrix-run';
import { ConnectionTest, type TestConnection } from '../shared/engine-fields';
import { DEFAULT_ENGINE, draftFromEngine, engineFromDraft } from '../shared/engine-form';

/** One local model server the setup offers. Sources: Ollama's and LM Studio's documentation (see each field). */
export interface ModelServerPreset {
  id: 'ollama' | 'lm-studio';
  name: string;
  /** Its OpenAI-compatible endpoint at its default port (Ollama 11434, LM Studio 1234). */
  baseUrl: string;
  /** A model to prefill ('' when the reader must name the one they loaded). */
  model: string;
  /** The steps in words, each with an optional command to copy. */
  steps: ReadonlyArray<{ text: string; command?: string }>;
}

/**
 * Ollama: the server refuses a browser extension's requests unless its origin is listed in
 * `OLLAMA_ORIGINS` (ollama/ollama#1797); LM Studio: `lms server start` (or the Developer tab's
 * "Start server"), with `--cors` since CORS is off by default (lmstudio.ai/docs/cli/server-start).
 */
export const MODEL_SERVER_PRESETS: readonly ModelServerPreset[] = [
  {
    id: 'ollama',
    name: 'Ollama',
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'qwen2.5:7b',
    steps: [
      { text: 'Start Ollama so that it answers this extension:', command: 'OLLAMA_ORIGINS=chrome-extension://* ollama serve' },
      { text: 'Download the model (once):', command: 'ollama pull qwen2.5:7b' },
    ],
  },
  {
    id: 'lm-studio',
    name: 'LM Studio',
    baseUrl: 'http://127.0.0.1:1234/v1',
    model: '',
    steps: [
      { text: 'Download a model in LM Studio and load it.' },
      {
        text: 'Start the local server with CORS on (Developer tab: “Start server”, Enable CORS), or:',
        command: 'lms server start --cors',
      },
      { text: 'Type the model’s identifier as LM Studio shows it.' },
    ],
  },
];

/**
 * The engine `preset`'s inputs describe: an OpenAI-compatible server at `baseUrl` with `models`
 * (comma-separated), checked as the run form checks it (`engineFromDraft`). → the engine, or the
 * first problem in words.
 */
export function serverEngine(baseUrl: string, models: string): { ok: true; engine: EngineSettings } | { ok: false; message: string } {
  const draft = { ...draftFromEngine(DEFAULT_ENGINE, 'run'), kind: 'openai', baseUrl, models };
  const result = engineFromDraft(draft, 'run');
  if (result.ok) return result;
  return { ok: false, message: Object.values(result.errors)[0] ?? 'The server settings are incomplete.' };
}

export interface EngineSetupProps {
  /** Why WebLLM is not the default here, in words. */
  reason: string;
  /** Save the engine as the reader's choice. */
  onChoose(engine: EngineSettings): void;
  /** With it, each server gets "Test connection" (what the server is, or the fix for a refusal). */
  testConnection?: TestConnection;
}

/** The setup screen (see the module comment); `data-testid="engine-setup"`. */
export function EngineSetup({ reason, onChoose, testConnection }: EngineSetupProps) {
  const id = useId();
  return (
    <section className="engine-setup" aria-labelledby={`${id}-heading`} data-testid="engine-setup">
      <h3 id={`${id}-heading`}>Set up a model server</h3>
      <p role="status" data-testid="engine-setup-reason">
        {reason} Runs need a model server on this computer (or your group’s): set one up below, or choose another engine under “Change”.
      </p>
      <div className="server-presets">
        {MODEL_SERVER_PRESETS.map((preset) => (
          <ServerPresetForm key={preset.id} preset={preset} onChoose={onChoose} testConnection={testConnection} />
        ))}
      </div>
    </section>
  );
}

function ServerPresetForm({
  preset,
  onChoose,
  testConnection,
}: {
  preset: ModelServerPreset;
  onChoose(engine: EngineSettings): void;
  testConnection: TestConnection | undefined;
}) {
  const id = useId();
  const [baseUrl, setBaseUrl] = useState(preset.baseUrl);
  const [models, setModels] = useState(preset.model);
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = serverEngine(baseUrl, models);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    setProblem(null);
    onChoose(result.engine);
  };
  return (
    <form className="server-preset" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-name`} data-testid={`setup-${preset.id}`}>
      <h4 id={`${id}-name`}>{preset.name}</h4>
      <ol>
        {preset.steps.map((step) => (
          <li key={step.text}>
            {step.text}
            {step.command && (
              <>
                {' '}
                <code>{step.command}</code>
              </>
            )}
          </li>
        ))}
      </ol>
      <p className="field">
        <label htmlFor={`${id}-url`}>{preset.name} base URL</label>
        <input id={`${id}-url`} type="url" value={baseUrl} onChange={(event) => setBaseUrl(event.currentTarget.value)} />
      </p>
      <p className="field">
        <label htmlFor={`${id}-models`}>{preset.name} model</label>
        <input
          id={`${id}-models`}
          type="text"
          value={models}
          placeholder={preset.model || 'the model identifier'}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setModels(event.currentTarget.value)}
        />
      </p>
      {problem && (
        <p id={`${id}-problem`} className="field-error">
          {problem}
        </p>
      )}
      <p className="actions">
        <button type="submit" data-testid={`use-${preset.id}`}>
          Use {preset.name}
        </button>
      </p>
      {testConnection && <PresetConnectionTest baseUrl={baseUrl} models={models} testConnection={testConnection} />}
    </form>
  );
}

/** "Test connection" for a preset's inputs, afresh whenever they change. */
function PresetConnectionTest({ baseUrl, models, testConnection }: { baseUrl: string; models: string; testConnection: TestConnection }) {
  const checked = serverEngine(baseUrl, models);
  return (
    <ConnectionTest
      key={checked.ok ? JSON.stringify(checked.engine) : 'invalid'}
      engine={checked.ok ? checked.engine : null}
      testConnection={testConnection}
    />
  );
}
