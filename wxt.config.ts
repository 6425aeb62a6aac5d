import { defineConfig } from 'wxt';

/** Unicode noncharacters (U+FDD0–U+FDEF, U+FFFE, U+FFFF). */
const NONCHARACTER = /[\uFDD0-\uFDEF\uFFFE\uFFFF]/g;

/**
 * Chrome refuses to inject a content script that holds a Unicode noncharacter ("It isn't UTF-8
 * encoded"), and the minifier writes escapes such as PostCSS's `'\uFFFE'` (a BOM check) as raw
 * characters. They can only stand in string, template and regex literals, where the escape
 * means the same, so each is written back as `\uXXXX`.
 */
const escapeNoncharacters = {
  name: 'assay-escape-noncharacters',
  generateBundle(_options: unknown, bundle: Record<string, { type: string; code?: string }>) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === 'chunk' && chunk.code) {
        chunk.code = chunk.code.replace(NONCHARACTER, (character) => `\\u${character.charCodeAt(0).toString(16).toUpperCase()}`);
      }
    }
  },
};

/**
 * The test build (`npm run build:test`, mode "test") adds one host permission for
 * 127.0.0.1 so Playwright can capture fixture pages without a real user click on the toolbar
 * button (activeTab is granted only by a user gesture). Release builds request nothing broader
 * than activeTab at install; a model server's origin is asked for when the user chooses it.
 */
export default defineConfig({
  modules: ['@wxt-dev/module-react'],
  imports: false,
  // The test build runs WebLLM 0.2.79 (`webllm-runtime-test`, an npm alias): the one real model
  // library these machines hold (../shared/webllm-test-model) is built for that release, which
  // the release's ^0.2.86 refuses. Only src/llm/webllm-engine.ts imports the package.
  vite: (env) => ({
    plugins: [escapeNoncharacters],
    ...(env.mode === 'test' ? { resolve: { alias: { '@mlc-ai/web-llm': 'webllm-runtime-test' } } } : {}),
  }),
  manifest: ({ mode }) => ({
    name: 'Assay',
    description: 'Capture materials papers and turn their reported properties into verified data.',
    // offscreen: the document that hosts the WebLLM engine and reads PDFs (src/extension/offscreen-engine.ts); grants no host access.
    // contextMenus: the "Check precedent in Assay" item on selected text (src/extension/precedent-menu.ts);
    // it adds a menu entry only and grants no access to any page.
    permissions: ['activeTab', 'scripting', 'sidePanel', 'storage', 'offscreen', 'contextMenus'],
    // The test build also holds the literature providers' hosts, so the e2e can click the real
    // "Open literature" switch (headless Chromium cannot answer a permission prompt); the tests'
    // request routing still blocks those hosts, which is the no-network case they check.
    // It also holds `publisher.test` (a reserved name, mapped to 127.0.0.1 by the publisher-badge
    // e2e's --host-resolver-rules): it stands in for a publisher site's optional permission, which
    // a reader grants in Settings ("Recognize papers on these sites") and headless Chromium cannot.
    host_permissions:
      mode === 'test'
        ? [
            'http://127.0.0.1/*',
            'http://publisher.test/*',
            'https://api.crossref.org/*',
            'https://export.arxiv.org/*',
            'https://api.openalex.org/*',
          ]
        : [],
    // Asked for one origin at a time, when the user points Assay at their own OpenAI-compatible
    // model server (Ollama, LM Studio, llama.cpp, vLLM); nothing is granted at install.
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    action: { default_title: 'Open Assay' },
    // WebLLM compiles its model library and tokenizer (WebAssembly) in the offscreen document, and
    // pdf.js its image decoders: MV3's default `script-src 'self'` forbids compiling WebAssembly,
    // so extension pages add 'wasm-unsafe-eval' (MV3's one allowed relaxation; no 'unsafe-eval').
    content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self';" },
  }),
});
