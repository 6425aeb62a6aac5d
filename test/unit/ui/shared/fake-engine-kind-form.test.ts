// @vitest-environment jsdom
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ExtractionPanel, type ExtractionPanelProps } from '../../../../src/ui/side-panel/extraction-panel';
import { registryWithFake } from '../../llm/fake-engine-kind';
import { reactRootPerTest } from '../react-root';

const view = reactRootPerTest();

function render(change: Partial<ExtractionPanelProps> = {}): ExtractionPanelProps {
  const props: ExtractionPanelProps = {
    paperKey: 'doi:10.1000/gan',
    properties: [{ name: 'band_gap', label: 'Band gap' }],
    run: undefined,
    engine: { kind: 'webllm' },
    onEngineChange: vi.fn(),
    start: vi.fn(async () => ({ ok: true as const, runId: 'run-1' })),
    stop: vi.fn(async () => undefined),
    ...change,
  };
  act(() => view.root.render(createElement(ExtractionPanel, props)));
  return props;
}

function labelled(text: string): HTMLInputElement | undefined {
  const label = [...view.container.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim() === text);
  if (!label) return undefined;
  return (label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input')) as HTMLInputElement;
}

function type(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('the engine form with an engine kind registered in one file', () => {
  it('offers the kind as a choice and renders its fields from its descriptors', () => {
    const props = render({ engineRegistry: registryWithFake });
    const radios = [...view.container.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map((radio) => radio.value);
    expect(radios).toEqual(['webllm', 'openai', 'fake']);
    expect(labelled('Endpoint name')).toBeUndefined();

    act(() => labelled('Fake engine (tests)')!.click());
    const endpoint = labelled('Endpoint name')!;
    expect(endpoint.dataset.testid).toBe('fake-endpoint');
    expect(view.container.querySelector('[data-testid="extract-button"]')!.hasAttribute('disabled')).toBe(true);
    type(endpoint, 'e1');
    expect(props.onEngineChange).toHaveBeenLastCalledWith({ kind: 'fake', endpoint: 'e1' });
    expect(view.container.querySelector('[data-testid="extract-button"]')!.hasAttribute('disabled')).toBe(false);
  });

  it('is not offered by the default registry', () => {
    render();
    expect(labelled('Fake engine (tests)')).toBeUndefined();
  });
});
