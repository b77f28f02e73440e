export { createApp, type BenchApp } from './app.ts';
export { BOUNDS, DEFAULTS, type AppConfig, type RuntimeName, type ServerKind } from './config.ts';
export { health, HELLO_TEXT, type Health } from './identity.ts';
export { HASH_SECRET } from './scenarios/hash.ts';
export { parseServerArgs, readinessLine, SERVER_FLAGS, type ServerOptions } from './server-args.ts';
export {
  contractBreach,
  defaultModes,
  RESERVED_NAMES,
  SCENARIO_MODES,
  servedModes,
  type ScenarioMode,
  type ScenarioModule,
  type ScenarioSettings,
} from './scenario-contract.ts';
export {
  builtinScenarioFiles,
  loadScenarioFile,
  loadScenarios,
  ScenarioError,
  setupScenarios,
  type LoadedScenario,
} from './scenario-loader.ts';
export { LOOP_CHECK_PREFIX } from './scenario-routes.ts';
export type { LoopCheckAnswer } from './loop-check.ts';
export { CHECKSUM_KIND, checksum32 } from './workloads/checksum.ts';
export { DATA_DEFAULTS, generateDataFiles, hasDataFiles, loadManifest, readManifest, type Manifest } from './workloads/data-files.ts';
export { FIB_VARIANTS, fibMemo, fibPlain, type FibVariant } from './workloads/fib.ts';
export { mergeStats, type ClusterInfo, type MergedStats, type ProcessPeer, type ProcessStats } from './cluster.ts';
export type { PoolSize, PoolSource, Pools } from './pool-size.ts';
