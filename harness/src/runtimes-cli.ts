// `pnpm bench:runtimes [--fetch node@22,bun@1.3]`: the runtime installations here (the pinned
// ones and those cached in data/runtimes) and the versions that can be asked for with
// `--runtimes name@version`; --fetch installs versions into the cache ahead of a run.
import { parseFlags } from './cli/flags.ts';
import { runCommand } from './cli/command.ts';
import { pinnedAlternates, probeRuntime, RUNTIME_NAMES, runtimeSpec } from './servers/runtimes.ts';
import { CACHE_DIR, cachedVersions, platformPackage, registryVersions, resolveRequest } from './servers/runtime-install.ts';
import { compareVersions, latestPerLine, parseRuntimeList } from './servers/runtime-request.ts';

function list(): void {
  for (const name of RUNTIME_NAMES) {
    const pinned = runtimeSpec(name);
    const probe = probeRuntime(pinned);
    console.log(`${name}`);
    console.log(`  pinned:    ${probe.ok ? `${probe.version} from ${pinned.source ?? '?'}` : `unavailable: ${probe.reason}`}`);
    for (const alternate of pinnedAlternates(name)) {
      const other = probeRuntime(alternate);
      if (other.ok) console.log(`  also:      ${other.version} from ${alternate.source ?? '?'} (${name}@${other.version.split('.')[0]})`);
    }
    const platform = platformPackage(name);
    if ('reason' in platform) {
      console.log(`  others:    ${platform.reason}`);
      continue;
    }
    const cached = cachedVersions(platform).sort(compareVersions);
    console.log(`  cached:    ${cached.length === 0 ? 'none' : cached.join(', ')} (in ${CACHE_DIR})`);
    try {
      const lines = latestPerLine(registryVersions(platform.pkg, 15_000), platform.lineParts, 10);
      console.log(
        `  available: ${lines.join(', ')} (newest of each line of ${platform.pkg} on the npm registry; any exact version works too)`,
      );
    } catch (error) {
      console.log(`  available: unknown: ${(error as Error).message}`);
    }
  }
  console.log('\nAsk for versions with --runtimes, e.g. pnpm bench:all --runtimes node@22,node@24,bun@1.3,deno');
}

function main(): number {
  const fetch = parseFlags(process.argv.slice(2), ['fetch']).fetch as string | undefined;
  if (fetch === undefined) {
    list();
    return 0;
  }
  let failed = 0;
  for (const request of parseRuntimeList(fetch, RUNTIME_NAMES)) {
    const spec = resolveRequest(request, { log: (line) => console.error(`runtimes: ${line}`) });
    const probe = probeRuntime(spec);
    if (!probe.ok) failed++;
    console.log(
      `${request.label}: ${probe.ok ? `${probe.version} from ${spec.source ?? '?'} (${spec.binary})` : `unavailable: ${probe.reason}`}`,
    );
  }
  return failed === 0 ? 0 : 1;
}

runCommand('runtimes', main, { exit: true });
