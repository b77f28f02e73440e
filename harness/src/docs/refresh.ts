/**
 * Every result block of README.md and docs/*.md against what its committed report renders to:
 * the one routine behind `pnpm docs:results` (write) and the docs test (check only).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { BlockError, renderBlockFiles } from './block-kinds.ts';
import { BlockSyntaxError, findBlocks, replaceBlocks } from './result-blocks.ts';

/** README.md and every Markdown page directly under docs/ (not the committed reports' folders). */
export function docFiles(root: string): string[] {
  const docs = join(root, 'docs');
  const pages = readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(docs, name));
  return [join(root, 'README.md'), ...pages];
}

export interface BlockState {
  /** "README.md:42: <!-- results:bench-summary source=... -->" */
  where: string;
  state: 'current' | 'stale' | 'error';
  /** For errors: why the block could not be rendered (unknown kind, missing report, no closing marker). */
  reason?: string;
}

/** Each block's state; with `write`, stale blocks are re-rendered in place. */
export function refreshDocs(root: string, options: { write: boolean }): BlockState[] {
  const states: BlockState[] = [];
  for (const file of docFiles(root)) {
    const name = relative(root, file);
    const text = readFileSync(file, 'utf8');
    try {
      findBlocks(text);
    } catch (error) {
      if (!(error instanceof BlockSyntaxError)) throw error;
      states.push({ where: name, state: 'error', reason: error.message });
      continue;
    }
    const fresh = replaceBlocks(text, (block) => {
      const where = `${name}:${block.line}: ${block.marker}`;
      try {
        const { body, files } = renderBlockFiles(block, root, name);
        const staleFiles = Object.entries(files).filter(([path, content]) => !sameFile(join(root, path), content));
        const current = body.replace(/\n+$/, '') === block.body && staleFiles.length === 0;
        states.push({ where, state: current ? 'current' : 'stale' });
        if (options.write) for (const [path, content] of staleFiles) writeFile(join(root, path), content);
        return body;
      } catch (error) {
        if (!(error instanceof BlockError)) throw error;
        states.push({ where, state: 'error', reason: error.message });
        return block.body;
      }
    });
    if (options.write && fresh !== text) writeFileSync(file, fresh);
  }
  return states;
}

const sameFile = (path: string, content: string) => existsSync(path) && readFileSync(path, 'utf8') === content;

function writeFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/**
 * What a bench:ab verdict is derived from, of each run (ab/ab-verdict.ts pairedRounds): a sample
 * of an A/B keeps these, so its verdicts can be derived again from what is committed.
 */
const AB_RUN_FIELDS = ['round', 'serverProcess', 'requestsPerSec', 'othersCpuCores'] as const;

function abRun(run: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = Object.fromEntries(AB_RUN_FIELDS.filter((k) => k in run).map((k) => [k, run[k]]));
  const machine = run.machine as { coresWorth?: unknown } | undefined;
  return machine?.coresWorth === undefined ? kept : { ...kept, machine: { coresWorth: machine.coresWorth } };
}

/**
 * A run's report.json as a committed sample: `dir`/report.json, with each cell's per-run details
 * (`results[].runDetails`, the bulk of a bench report) left out, since no block renders them,
 * but for an A/B's, which keep what its verdicts are derived from (AB_RUN_FIELDS and the
 * machine's speed); `docsSample` says what was left out and where the report came from, and
 * carries `note`: what the report itself does not record about the run (e.g. the machine's load),
 * shown with its figures.
 */
export function takeSample(reportPath: string, dir: string, root: string, note?: string): string {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { results?: Record<string, unknown>[]; parameters?: SampleParameters };
  const dropped: string[] = [];
  if (Array.isArray(report.results) && report.results.some((cell) => 'runDetails' in cell)) {
    const ab = report.parameters?.ab !== undefined;
    report.results = report.results.map(({ runDetails, ...cell }) =>
      ab && Array.isArray(runDetails) ? { ...cell, runDetails: runDetails.map((run: Record<string, unknown>) => abRun(run)) } : cell,
    );
    dropped.push(ab ? `results[].runDetails[] but ${[...AB_RUN_FIELDS, 'machine.coresWorth'].join(', ')}` : 'results[].runDetails');
  }
  // Where the report lay means nothing to a reader of the repository: its folder's name is kept.
  const inside = !relative(root, reportPath).startsWith('..');
  const from = inside ? relative(root, reportPath) : join(basename(dirname(reportPath)), basename(reportPath));
  relativiseModules(report.parameters, root);
  const sample = { ...report, docsSample: { from, dropped, ...(note === undefined ? {} : { note }) } };
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'report.json');
  // A path in this checkout (a module file bench:ab compared, a profiled scenario's file) is
  // written from its root, as a runtime's binary is: the same on every machine.
  const text = JSON.stringify(sample, null, 2)
    .replace(CHECKOUT_PATH, '"$2')
    .replaceAll(`"${root.replace(/\/$/, '')}/`, '"');
  writeFileSync(out, `${text}\n`);
  return out;
}

/**
 * A report made in another checkout of this repository (a worktree of its own) names the module
 * files it ran by that checkout's paths: each is written as the path from this checkout's root
 * that holds the same file, found by the longest tail of the path that exists here.
 */
function relativiseModules(parameters: SampleParameters | undefined, root: string): void {
  const fromRoot = (path: string): string => {
    if (!isAbsolute(path)) return path;
    const parts = path.split('/').filter((part) => part !== '');
    for (let i = 0; i < parts.length; i++) {
      const tail = parts.slice(i).join('/');
      if (existsSync(join(root, tail))) return tail;
    }
    return path;
  };
  for (const entry of parameters?.scenarios ?? []) if (entry.file !== undefined) entry.file = fromRoot(entry.file);
  for (const side of [parameters?.ab?.a, parameters?.ab?.b]) if (side?.file !== undefined) side.file.path = fromRoot(side.file.path);
}

type SampleParameters = {
  scenarios?: { file?: string }[];
  ab?: { a?: { file?: { path: string } }; b?: { file?: { path: string } } };
};

/**
 * An absolute path into a checkout (a runtime's binary under node_modules/ or data/runtimes/),
 * as it is written in a committed sample: from the checkout's root, the same on every machine.
 */
const CHECKOUT_PATH = /"(\/[^"]*?)\/((?:node_modules|data\/runtimes)\/)/g;
