import { describe, expect, it, vi } from 'vitest';
import { captureScriptFile, readTabArticle, type CaptureInjection, type CaptureTabDependencies } from '../../../src/extension/capture-tab';
import { makeArticle } from '../store/article-fixture';

/** Fakes: the tab shows `url` with `contentType`; the capture script answers `article`. */
function fakes(url: string, contentType: string) {
  const executeScript = vi.fn(async (injection: CaptureInjection) =>
    'func' in injection ? [{ result: contentType }] : [{ result: { ok: true, article: makeArticle({ url }) } }],
  );
  const readPdf = vi.fn<CaptureTabDependencies['readPdf']>(async () => ({ ok: true, article: makeArticle({ source: 'pdf' }) }));
  const dependencies: CaptureTabDependencies = {
    tabs: { get: async () => ({ url }), sendMessage: async () => undefined },
    scripting: { executeScript },
    readPdf,
    extensionBase: 'chrome-extension://assayid/',
  };
  return { dependencies, executeScript, readPdf };
}

describe('readTabArticle', () => {
  it('reads an HTML tab with the capture script and returns its article, validated', async () => {
    const { dependencies, executeScript } = fakes('https://pubs.acs.org/doi/10.1021/x', 'text/html');
    const read = await readTabArticle(4, dependencies);
    expect(read).toMatchObject({ ok: true, article: { doi: '10.1021/acsphotonics.9b00250', url: 'https://pubs.acs.org/doi/10.1021/x' } });
    expect(executeScript).toHaveBeenLastCalledWith({ target: { tabId: 4 }, files: [captureScriptFile] });
  });

  it('declines a PDF tab with { pdf: false }: no download, no capture script', async () => {
    const { dependencies, executeScript, readPdf } = fakes('https://pubs.acs.org/doi/pdf/10.1021/x', 'application/pdf');
    const read = await readTabArticle(4, dependencies, { pdf: false });
    expect(read).toEqual({
      ok: false,
      failure: { code: 'no-tab', message: 'The tab shows a PDF, which is read only when you capture it.' },
    });
    expect(readPdf).not.toHaveBeenCalled();
    expect(executeScript).toHaveBeenCalledTimes(1); // the content-type probe only
  });

  it('reads a PDF tab by default', async () => {
    const { dependencies, readPdf } = fakes('https://pubs.acs.org/doi/pdf/10.1021/x', 'application/pdf');
    expect((await readTabArticle(4, dependencies)).ok).toBe(true);
    expect(readPdf).toHaveBeenCalledTimes(1);
  });
});
