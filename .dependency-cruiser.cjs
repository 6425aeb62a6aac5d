/**
 * dependency-cruiser: no import cycles between files, type-only imports included (ESLint's
 * import/no-cycle skips `import type`, and a type circle still ties two modules together).
 * The layer rules themselves live in eslint.config.js.
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.output|\\.wxt)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
