// Import circles in src (docs/architecture.md): `npm run lint` runs this after ESLint, which checks that no import goes up.
// dependency-cruiser, not a no-cycle lint rule: it counts type-only imports, which those rules skip.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'These files import each other in a circle. Move what they share (often a type) into a file that owns it, so the imports run one way.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // keep `import type` and other imports the compiler erases: a circle of types is still a circle
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // packages and Node's own modules cannot close a circle in src: not read
    exclude: { path: '^node_modules' },
    includeOnly: '^src/',
    progress: { type: 'none' },
  },
};
