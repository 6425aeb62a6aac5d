// @vitest-environment jsdom
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { EngineSettings, MatrixRunRow } from '../../../../src/contracts/matrix-run';
import { ExtractionPanel, type ExtractionPanelProps } from '../../../../src/ui/side-panel/extraction-panel';
import { record, runRow } from '../run-fixtures';
import { reactRootPerTest } from '../react-root';
import { chosenLabels, optionLabels, pickProperty, removeProperty, searchProperties } from '../property-picker-driver';

// Tell React this is a test environment so `act` flushes effects and updates.
const properties = [
  { name: 'band_gap', label: 'Band gap', synonyms: ['bandgap', 'optical gap'], symbols: ['Eg'] },
  { name: 'tc', label: 'Tc', synonyms: ['critical temperature', 'superconducting transition temperature'] },
  { name: 'd33', label: 'Piezoelectric coefficient d33', symbols: ['d33'] },
  { name: 'bulk_modulus', label: 'Bulk modulus', symbols: ['B0'] },
];

const view = reactRootPerTest();

function props(change: Partial<ExtractionPanelProps> = {}): ExtractionPanelProps {
  return {
    paperKey: 'doi:10.1000/gan',
    properties,
    run: undefined,
    engine: { kind: 'webllm' },
    onEngineChange: vi.fn(),
    start: vi.fn(async () => ({ ok: true as const, runId: 'run-1' })),
    stop: vi.fn(async () => undefined),
    ...change,
  };
}

function render(panelProps: ExtractionPanelProps): void {
  act(() => view.root.render(createElement(ExtractionPanel, panelProps)));
}

const byTestId = (id: string) => view.container.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const startButton = () => byTestId('extract-button') as HTMLButtonElement;

/** Set an input's value the way a user's typing does, so React's onChange fires. */
function type(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

function labelled(text: string): HTMLInputElement {
  const label = [...view.container.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim() === text);
  if (!label) throw new Error(`no label "${text}"`);
  return (label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input')) as HTMLInputElement;
}

describe('ExtractionPanel', () => {
  it('starts an idle paper with band gap checked, the browser preset, WebLLM and seed 42', async () => {
    const panelProps = props();
    render(panelProps);
    expect(view.container.querySelector('section h2')?.textContent).toBe('Extract properties');
    expect(byTestId('run-status')?.dataset.status).toBe('idle');
    expect(byTestId('run-progress')).toBeNull();
    expect(byTestId('stop-button')).toBeNull();
    expect(chosenLabels(view.container)).toEqual(['Band gap']);
    expect(byTestId('run-summary')?.textContent).toBe('Band gap · browser preset · WebLLM');

    await pickProperty(view.container, 'Tc', 'Tc');
    expect(chosenLabels(view.container)).toEqual(['Band gap', 'Tc']);
    expect(byTestId('run-summary')?.textContent).toBe('Band gap, Tc · browser preset · WebLLM');
    await act(async () => startButton().click());
    expect(panelProps.start).toHaveBeenCalledWith({
      paperKey: 'doi:10.1000/gan',
      properties: ['band_gap', 'tc'],
      preset: 'browser',
      engine: { kind: 'webllm' },
      seed: 42,
    });
    // The row of run-1 is not there yet: "starting", and Start stays disabled.
    expect(byTestId('run-status')?.dataset.status).toBe('starting');
    expect(startButton().disabled).toBe(true);
  });

  it('starts with the properties the quick scan found, with their counts, until the reader chooses', async () => {
    const panelProps = props();
    render(panelProps);
    expect(byTestId('run-summary')?.textContent).toBe('Band gap · browser preset · WebLLM');
    // The scan answers after the panel opened: its found properties replace the fallback.
    render({
      ...panelProps,
      foundCounts: new Map([
        ['tc', 3],
        ['bulk_modulus', 9],
        ['band_gap', 1],
      ]),
    });
    expect(byTestId('run-summary')?.textContent).toBe('Bulk modulus ×9, Tc ×3 · browser preset · WebLLM');
    // The summary names the most frequent first; the chips keep the picker's order.
    expect(chosenLabels(view.container)).toEqual(['Tc ×3', 'Bulk modulus ×9']);
    expect(byTestId('scan-found')?.textContent).toBe('Found in this paper by the quick scan: Bulk modulus ×9, Tc ×3, Band gap ×1');
    // The reader's choice stands: a later scan (a new capture) does not change it.
    await removeProperty(view.container, 'Bulk modulus');
    render({ ...panelProps, foundCounts: new Map([['d33', 4]]) });
    expect(byTestId('run-summary')?.textContent).toBe('Tc · browser preset · WebLLM');
    await act(async () => startButton().click());
    expect(panelProps.start).toHaveBeenCalledWith(expect.objectContaining({ properties: ['tc'] }));
  });

  it('shows the model-server setup instead of starting when no engine can run here', async () => {
    const onChoose = vi.fn();
    render(props({ engineSetup: { reason: 'This browser has no WebGPU (navigator.gpu is missing).', onChoose } }));
    expect(byTestId('run-summary')?.textContent).toBe('Band gap · browser preset · no engine set up');
    expect(startButton().disabled).toBe(true);
    expect(byTestId('engine-setup-reason')?.textContent).toContain('This browser has no WebGPU');
    expect(labelled('Ollama base URL').value).toBe('http://127.0.0.1:11434/v1');
    expect(labelled('LM Studio base URL').value).toBe('http://127.0.0.1:1234/v1');
    expect(byTestId('setup-ollama')?.textContent).toContain('OLLAMA_ORIGINS=chrome-extension://* ollama serve');
    // LM Studio has no model prefilled: "Use" says so and saves nothing.
    await act(async () => (byTestId('use-lm-studio') as HTMLButtonElement).click());
    expect(onChoose).not.toHaveBeenCalled();
    expect(byTestId('setup-lm-studio')?.querySelector('.field-error')?.textContent).toBeTruthy();
    type(labelled('LM Studio model'), 'qwen2.5-7b-instruct');
    await act(async () => (byTestId('use-lm-studio') as HTMLButtonElement).click());
    expect(onChoose).toHaveBeenCalledWith(
      expect.objectContaining({
        kind: 'openai',
        baseUrl: 'http://127.0.0.1:1234/v1',
        roster: expect.objectContaining({ proposers: ['qwen2.5-7b-instruct'] }),
      }),
    );
  });

  it('disables Start with no property chosen', async () => {
    render(props());
    await removeProperty(view.container, 'Band gap');
    expect(chosenLabels(view.container)).toEqual([]);
    expect(startButton().disabled).toBe(true);
    expect(view.container.textContent).toContain('Choose at least one property.');
    expect(byTestId('run-summary')?.textContent).toBe('No property chosen · browser preset · WebLLM');
  });

  it('filters the picker by label, synonym and symbol, and a chosen option removes the property again', async () => {
    render(props());
    await searchProperties(view.container, 'modulus');
    expect(optionLabels(view.container)).toEqual(['Bulk modulus']);
    await searchProperties(view.container, 'critical temp');
    expect(optionLabels(view.container)).toEqual(['Tc']);
    // A long label is named by its symbol in the one-line summary.
    await pickProperty(view.container, 'piezo', 'Piezoelectric coefficient d33');
    expect(byTestId('run-summary')?.textContent).toBe('Band gap, d33 · browser preset · WebLLM');
    await removeProperty(view.container, 'Piezoelectric coefficient d33');
    await searchProperties(view.container, 'eg');
    expect(optionLabels(view.container)).toEqual(['Band gap']);
    await searchProperties(view.container, 'zzz');
    expect(optionLabels(view.container)).toEqual([]);
    expect(view.container.textContent).toContain('No property matches “zzz”.');
    await pickProperty(view.container, 'gap', 'Band gap');
    expect(chosenLabels(view.container)).toEqual([]);
  });

  it('folds the preset and engine under "Change", keeping Start on the summary line', () => {
    render(props());
    const details = byTestId('run-details')!;
    const toggle = byTestId('run-details-button') as HTMLButtonElement;
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(details.hidden).toBe(true);
    expect(toggle.textContent).toBe('Change properties, preset and engine');
    expect(byTestId('run-summary')?.parentElement?.contains(startButton())).toBe(true);
    act(() => toggle.click());
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(byTestId('run-details')?.hidden).toBe(false);
    act(() => labelled('OpenAI-compatible server').click());
    expect(byTestId('run-summary')?.textContent).toBe('Band gap · browser preset · OpenAI-compatible server');
  });

  it('shows an invalid server URL inline, disables Start, and reports only valid engines', () => {
    const panelProps = props();
    render(panelProps);
    act(() => labelled('OpenAI-compatible server').click());
    expect(labelled('Base URL').value).toBe('http://127.0.0.1:11434/v1');
    expect(labelled('API key (optional)').type).toBe('password');
    expect(startButton().disabled).toBe(true); // no model named yet
    type(labelled('Models'), 'qwen2.5:7b, llama3.2:3b');
    expect(startButton().disabled).toBe(false);
    const roster = {
      proposers: ['qwen2.5:7b', 'llama3.2:3b'],
      aggregator: 'qwen2.5:7b',
      generator: 'qwen2.5:7b',
      discriminator: 'qwen2.5:7b',
    };
    expect(panelProps.onEngineChange).toHaveBeenLastCalledWith({ kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', roster });

    type(labelled('Base URL'), 'localhost:11434');
    expect(byTestId('engine-base-url-error')?.textContent).toBe(
      'Start the address with http:// or https://, e.g. http://127.0.0.1:11434/v1.',
    );
    expect(labelled('Base URL').getAttribute('aria-invalid')).toBe('true');
    expect(startButton().disabled).toBe(true);
    expect(panelProps.onEngineChange).toHaveBeenCalledTimes(1);
  });

  it('fills the inputs from settings read later, without undoing what it reported itself', () => {
    const onEngineChange = vi.fn();
    render(props({ onEngineChange }));
    const stored: EngineSettings = {
      kind: 'openai',
      baseUrl: 'http://localhost:1234/v1',
      roster: { proposers: ['a'], aggregator: 'a', generator: 'b', discriminator: 'a' },
    };
    render(props({ onEngineChange, engine: stored }));
    expect(labelled('Base URL').value).toBe('http://localhost:1234/v1');
    expect(labelled('Models').value).toBe('a, generator=b');
    type(labelled('Models'), 'a, generator=b, ');
    render(props({ onEngineChange, engine: onEngineChange.mock.lastCall![0] as EngineSettings }));
    expect(labelled('Models').value).toBe('a, generator=b, '); // the echo did not reformat the text being typed
  });

  it('shows a running run’s progress and a Stop button that stops it', async () => {
    const run = runRow({ progress: { stage: 'moa', property: 'band_gap', done: 3, total: 4 } });
    const panelProps = props({ run });
    render(panelProps);
    const status = byTestId('run-status')!;
    expect(status.dataset.status).toBe('running');
    expect(status.getAttribute('role')).toBe('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.textContent).toBe('Band gap: the models propose values (MoA), 3 of 4 model calls.');
    const progress = byTestId('run-progress') as HTMLProgressElement;
    expect(progress.getAttribute('aria-valuetext')).toBe('Band gap: the models propose values (MoA), 3 of 4 model calls.');
    expect(progress.value).toBeCloseTo(1.75 / 14, 10); // (0 + (1 + 0.75) / 7) / 2: MoA is the second of seven stages
    expect(startButton().disabled).toBe(true);

    await act(async () => (byTestId('stop-button') as HTMLButtonElement).click());
    expect(panelProps.stop).toHaveBeenCalledWith('run-1');
    expect((byTestId('stop-button') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a start failure in the error block and allows another try', async () => {
    const start = vi.fn(async () => ({
      ok: false as const,
      failure: { code: 'permission-denied', message: 'Assay needs permission to reach http://127.0.0.1:11434' },
    }));
    render(props({ start }));
    await act(async () => startButton().click());
    const error = byTestId('run-error')!;
    expect(error.dataset.errorCode).toBe('permission-denied');
    expect(error.textContent).toBe('Assay may not reach the model serverAssay needs permission to reach http://127.0.0.1:11434');
    expect(byTestId('run-status')?.dataset.status).toBe('idle');
    expect(startButton().disabled).toBe(false);
  });

  it('shows an interrupted run’s error, its grouped verdicts with evidence and its cost', () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const run: MatrixRunRow = runRow({
      status: 'interrupted',
      propertiesDone: ['band_gap'],
      error: { code: 'device-lost', message: 'The GPU device was lost: reload failed.' },
      records: [
        record('rejected', { reasons: ['the quote does not show 2.1 eV'] }, { material: 'AlN', value: { kind: 'number', value: 2.1 } }),
        record('verified', {}, { material: hostile }),
        record('needs_review', {
          votes: ['moa'],
          adjudication: {
            outcome: 'conflict',
            moa: record('verified').triplet,
            gd: { ...record('verified').triplet, value: { kind: 'range', low: 3.3, high: 3.5 } },
          },
          reasons: ['the paths disagree on the value'],
        }),
      ],
      run: {
        engine: 'slm-matrix',
        preset: { name: 'browser' } as never,
        models: {},
        usage: {} as never,
        calls: 14,
        promptTokens: 5230,
        completionTokens: 812,
        milliseconds: 12_345,
        properties: [],
        counts: { verified: 1, needs_review: 1, rejected: 1 },
      },
    });
    render(props({ run }));
    expect(byTestId('run-status')?.dataset.status).toBe('interrupted');
    expect(byTestId('run-status')?.textContent).toBe('Interrupted after 1 of 2 properties.');
    expect(byTestId('stop-button')).toBeNull();
    expect(startButton().disabled).toBe(false);
    const error = byTestId('run-error')!;
    expect(error.dataset.errorCode).toBe('device-lost');
    expect(error.textContent).toBe('The GPU stopped responding (device lost)The GPU device was lost: reload failed.');

    const items = [...byTestId('run-records')!.querySelectorAll<HTMLLIElement>('li.record')];
    expect(items.map((item) => item.dataset.status)).toEqual(['verified', 'needs_review', 'rejected']);
    expect(byTestId('run-records')!.querySelector('h3')?.textContent).toBe('Band gap');
    expect(byTestId('run-records')!.querySelector('.counts')?.textContent).toBe('1 verified · 1 needs review · 1 rejected');
    // Model text is text: the hostile material is shown as written and no element is made of it.
    expect(items[0]!.querySelector('.material')?.textContent).toBe(hostile);
    expect(view.container.querySelector('img')).toBeNull();
    expect(items[0]!.querySelector('.badge')?.textContent).toBe('Verified');
    expect(items[0]!.querySelector('.value')?.textContent).toBe('3.4 eV');
    expect(items[0]!.querySelector('blockquote')?.textContent).toBe('The band gap of GaN is 3.4 eV at room temperature.');
    expect(items[0]!.textContent).toContain('moa + gd');
    expect(items[1]!.textContent).toContain('MoA answerGaN: 3.4 eV');
    expect(items[1]!.textContent).toContain('G–D answerGaN: 3.3–3.5 eV');
    expect(items[1]!.textContent).toContain('the paths disagree on the value');
    expect(items[2]!.querySelector('.badge')?.textContent).toBe('Rejected');
    expect(items[2]!.textContent).toContain('the quote does not show 2.1 eV');
    expect(byTestId('run-usage')?.textContent).toBe('Calls: 14 · tokens: 5230 prompt / 812 completion · 12.3 s');
  });

  it('says "not provided in this paper" for a property that abstained, with what was searched, and offers the run report', () => {
    const runRecord = (properties: NonNullable<MatrixRunRow['run']>['properties']) =>
      ({
        engine: 'slm-matrix',
        preset: { name: 'browser' } as never,
        models: {},
        usage: {} as never,
        calls: 5,
        promptTokens: 6000,
        completionTokens: 300,
        milliseconds: 900,
        properties,
        counts: { verified: 1, needs_review: 0, rejected: 0 },
      }) as NonNullable<MatrixRunRow['run']>;
    const base = { skipped: false, blockIds: [], truncatedBlockIds: [], passageChars: 0, candidates: 0 };
    const flow = { earlyExit: false, refinementRounds: 0, converged: false, problems: [], milliseconds: 0 };
    const run = runRow({
      status: 'done',
      propertiesDone: ['band_gap'],
      records: [record('verified')],
      run: runRecord([
        { property: 'band_gap', ...base, ...flow, calls: 4 },
        {
          property: 'tc',
          ...base,
          ...flow,
          skipped: false,
          calls: 5,
          notProvided: { reason: 'nothing-found', chunksRanked: 42, chunksRead: 40, calls: 5 },
        },
      ]),
    });
    render(props({ run }));
    const lines = [...byTestId('not-provided')!.querySelectorAll('li')];
    expect(lines.map((line) => [line.dataset.property, line.textContent])).toEqual([
      ['tc', 'Tc: not provided in this paper. 5 model calls read 40 of 42 relevant passages and found no value.'],
    ]);
    expect(byTestId('download-run-report')?.textContent).toBe('Download run report (JSON)');
  });

  it('says "Not decided" with the reason for a property that failed model calls left open, as text', () => {
    const base = { skipped: false, blockIds: [], truncatedBlockIds: [], passageChars: 0, candidates: 0 };
    const flow = { earlyExit: false, refinementRounds: 0, converged: false, problems: [], milliseconds: 0 };
    // Model text may hold markup; it must show as characters, never become elements.
    const message = 'the proposer model\'s reply did not match the expected JSON after one repair attempt: <b>"3.4 eV"</b>';
    const run = runRow({
      status: 'done',
      propertiesDone: ['band_gap', 'tc'],
      records: [record('verified')],
      run: {
        engine: 'slm-matrix',
        preset: { name: 'browser' } as never,
        models: {},
        usage: {} as never,
        calls: 12,
        promptTokens: 6000,
        completionTokens: 300,
        milliseconds: 900,
        properties: [
          { property: 'band_gap', ...base, ...flow, calls: 4 },
          { property: 'tc', ...base, ...flow, calls: 8, notDecided: { code: 'malformed-output', message, calls: 8 } },
        ],
        counts: { verified: 1, needs_review: 0, rejected: 0 },
      },
    });
    render(props({ run }));
    const lines = [...byTestId('not-decided')!.querySelectorAll('li')];
    expect(lines.map((line) => [line.dataset.property, line.dataset.code, line.textContent])).toEqual([
      ['tc', 'malformed-output', `Tc — Not decided: ${message} (8 model calls).`],
    ]);
    expect(lines[0]!.querySelector('b')).toBeNull();
    expect(byTestId('not-provided')).toBeNull();
  });

  it('switches from "starting" to the new run’s row when it appears', async () => {
    const old = runRow({ id: 'run-0', status: 'done', records: [record('verified')] });
    const panelProps = props({ run: old, start: vi.fn(async () => ({ ok: true as const, runId: 'run-1' })) });
    render(panelProps);
    expect(byTestId('run-status')?.dataset.status).toBe('done');
    await act(async () => startButton().click());
    render(panelProps); // the live query still returns the old row
    expect(byTestId('run-status')?.dataset.status).toBe('starting');
    expect(byTestId('run-records')).toBeNull();
    render({ ...panelProps, run: runRow({ id: 'run-1', engineStatus: 'Loading Qwen2.5-1.5B' }) });
    expect(byTestId('run-status')?.dataset.status).toBe('running');
    expect(byTestId('run-status')?.textContent).toBe('Loading Qwen2.5-1.5B');
    expect(byTestId('stop-button')).not.toBeNull();
  });

  it('shows a refused Stop and lets it be pressed again', async () => {
    const stop = vi.fn(async () => {
      throw Object.assign(new Error('The Assay background did not answer'), { code: 'internal' });
    });
    render(props({ run: runRow(), stop }));
    await act(async () => (byTestId('stop-button') as HTMLButtonElement).click());
    expect(byTestId('run-error')?.dataset.errorCode).toBe('internal');
    expect(byTestId('run-error')?.textContent).toBe('Something went wrong inside AssayThe Assay background did not answer');
    expect((byTestId('stop-button') as HTMLButtonElement).disabled).toBe(false);
  });
});
