/**
 * The import rules of docs/layout.md, checked by dependency-cruiser from
 * harness/test/dependencies.test.ts (so `pnpm test` and CI fail on a new circle or an upward
 * import, naming the path). Layers, top to bottom:
 *   entry points (harness/src/*-cli.ts and the composers beside them) and docs/ (the docs command's pipeline)
 *   -> features (bench, curve, seeds, browser, calibrate, versions, remote, compare, ab, measure)
 *      and report/ (merge, derivations, the site, renderers) beside them: neither imports the other
 *   -> servers, load (start/check/keep servers; generate load), below the features only
 *   -> present (the words, figures and HTML pieces every renderer shares)
 *   -> system, model, stats (the floor);   packages/ below all of harness/ and runtimes/.
 */
const FEATURES = '(bench|curve|seeds|browser|calibrate|versions|remote|compare|docs|ab|measure)';
const SRC = '^harness/src/';
const ENTRY = `${SRC}[^/]+\\.ts$`;
/** The docs command's pipeline (result blocks rendered from committed reports): an entry point split into files. */
const DOCS = `${SRC}docs/`;

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
      name: 'floor-is-the-floor',
      comment: 'model/ (the report types), stats/ (intervals, ratios, tests) and system/ (the OS) know nothing above them.',
      severity: 'error',
      from: { path: `${SRC}(model|stats|system)/` },
      to: { path: `${SRC}`, pathNot: `${SRC}(model|stats|system)/` },
    },
    {
      name: 'model-at-the-bottom',
      comment: "model/ (report.json's types) is the bottom of the floor: it imports nothing of the harness outside itself, types included.",
      severity: 'error',
      from: { path: `${SRC}model/` },
      to: { path: `${SRC}`, pathNot: `${SRC}model/` },
    },
    {
      name: 'report-below-servers-and-load',
      comment: 'report/ knows no feature, no stage above it and no entry point: features hand it sections (model/section.ts).',
      severity: 'error',
      from: { path: `${SRC}report/` },
      to: { path: [`${SRC}${FEATURES}/`, `${SRC}(servers|load)/`, ENTRY] },
    },
    {
      name: 'only-entry-points-import-report',
      comment:
        'report/ derives and renders, and only the entry points (and the docs pipeline) use it: a feature returns what ' +
        'it found and hands its sections over (model/section.ts), the entry point makes the report from it ' +
        '(report/bench-files.ts) and gives the words a run logs with (report/text/progress-lines.ts). What a ' +
        "feature's own renderer shares with report/ is in present/.",
      severity: 'error',
      from: { path: SRC, pathNot: [`${SRC}report/`, ENTRY, DOCS] },
      to: { path: `${SRC}report/` },
    },
    {
      name: 'present-above-the-floor-only',
      comment:
        "present/ (formats, verdict words, HTML pieces) is shared by report/ and the features' renderers: it imports only the floor.",
      severity: 'error',
      from: { path: `${SRC}present/` },
      to: { path: SRC, pathNot: `${SRC}(present|model|stats|system)/` },
    },
    {
      name: 'servers-and-load-below-features',
      comment:
        'servers/ and load/ are below the features: another host reaches them as a ServerHost (servers/server-host.ts) ' +
        'that the entry point builds from remote/, and named versions are resolved in servers/ itself.',
      severity: 'error',
      from: { path: `${SRC}(servers|load)/` },
      to: { path: [`${SRC}${FEATURES}/`, ENTRY] },
    },
    {
      name: 'nothing-imports-entry-points',
      comment: 'Entry points (*-cli.ts, site-kinds.ts) compose features; nothing below them imports them.',
      severity: 'error',
      from: { path: `${SRC}[^/]+/` },
      to: { path: ENTRY },
    },
    {
      name: 'cli-on-the-floor',
      comment: 'cli/ (flag parsing, the command skeleton) is used at every level, so it imports only the floor.',
      severity: 'error',
      from: { path: `${SRC}cli/` },
      to: { path: `${SRC}`, pathNot: `${SRC}(cli|model|stats|system)/` },
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
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
