/**
 * dependency-cruiser: no import cycles between files, type-only imports included (ESLint's
 * import/no-cycle skips `import type`, and a type circle still ties two modules together).
 * The layer rules themselves live in eslint.config.js, which also orders the folders within a layer
 * so that no two folders of src/ import each other (a folder cycle fails there, type-only imports
 * included); text-below-properties below repeats one such arrow with its reason.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'no-circular: these files import each other (directly or through others). Move the shared shape into ' +
        'src/contracts/ or the shared code into a module both can import (see README "Layout").',
      from: {},
      to: { circular: true },
    },
    {
      name: 'text-below-properties',
      severity: 'error',
      comment:
        'text-below-properties: a module of src/text imports from src/properties. src/text reads text (sentences, ' +
        'tables, quantities, units, materials, property mentions of the schemas it is given) and src/properties ' +
        '(schemas, display units, questions) builds on it, so the arrow goes one way and the two folders never form a ' +
        'cycle. Take the schemas as a parameter (the ArticleIndex carries the catalogue) or move the code into src/text.',
      from: { path: '^src/text/' },
      to: { path: '^src/properties/' },
    },
    {
      name: 'no-pdfjs-in-background',
      severity: 'error',
      comment:
        'no-pdfjs-in-background: the background service worker reaches pdf.js. A service worker cannot import() ' +
        'later, so everything it reaches is bundled into background.js and parsed at each start of the worker ' +
        '(pdf.js was 1.7 MB of its 2.1 MB). PDFs are read in the offscreen document (src/extension/capture-pdf-tab.ts says why): ' +
        'import the PDF reader from code only the offscreen document, the side panel or the CLI loads.',
      from: { path: '^entrypoints/background\\.ts$' },
      to: { path: 'node_modules/pdfjs-dist/', reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.output|\\.wxt)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
