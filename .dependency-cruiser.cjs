/**
 * The import rules of shared/DESIGN.md section 1, checked by dependency-cruiser from
 * harness/test/dependencies.test.ts (so `pnpm test` and CI fail on a new circle or an upward
 * import, naming the path). Layers, top to bottom:
 *   entry points (harness/src/*-cli.ts and the composers beside them)
 *   -> features (curve, seeds, browser, calibrate, versions, remote, compare)
 *   -> run -> report / system;   packages/ below all of harness/ and runtimes/.
 */
const FEATURES = '(curve|seeds|browser|calibrate|versions|remote|compare)';
const SRC = '^harness/src/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: two modules that cannot be understood (or loaded) one without the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'report-is-the-floor',
      comment: 'report/ knows no feature, no stage above it and no entry point: features hand it sections (report/section.ts).',
      severity: 'error',
      from: { path: `${SRC}report/` },
      to: { path: [`${SRC}${FEATURES}/`, `${SRC}run/`, `${SRC}[^/]+\\.ts$`] },
    },
    {
      name: 'system-is-the-floor',
      comment: 'system/ (proc, pinning, paths, environment) imports nothing above the floor.',
      severity: 'error',
      from: { path: `${SRC}system/` },
      to: { path: [`${SRC}${FEATURES}/`, `${SRC}run/`, `${SRC}[^/]+\\.ts$`] },
    },
    {
      name: 'run-below-features',
      comment:
        'run/ is below the features: another host reaches it as a ServerHost (run/server-host.ts) that ' +
        'the entry point builds from remote/, and named versions are resolved in run/ itself.',
      severity: 'error',
      from: { path: `${SRC}run/` },
      to: { path: `${SRC}${FEATURES}/` },
    },
    {
      name: 'nothing-imports-entry-points',
      comment: 'Entry points (*-cli.ts, site-kinds.ts) compose features; nothing below them imports them (cli-flags.ts is the shared flag parser).',
      severity: 'error',
      from: { path: `${SRC}(run|report|system|${FEATURES.slice(1, -1)})/` },
      to: { path: `${SRC}[^/]+\\.ts$`, pathNot: `${SRC}cli-flags\\.ts$` },
    },
    {
      name: 'packages-below-harness-and-runtimes',
      comment: 'packages/ (the app) is served by runtimes/ and measured by harness/; it imports neither.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(harness|runtimes)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|/test/|\\.test\\.ts$' },
    // Type-only imports count: a circle through types is still a circle to a reader.
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
