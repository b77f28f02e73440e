/**
 * The one statement about the host at the top of every report, console summary and docs block:
 * whether its speed held (the independent check, with its figures) and which cells shared it.
 * The verdict is system/host-speed.ts's (hostVerdict): this file only words it, so the top of a
 * report cannot say three things about one steady host. Where the check held, nothing here warns
 * about the machine's speed: a cell whose runs read the machine apart says so on that cell
 * (precisionNotes), and the reference loop's range is an input to req/unit (environment table),
 * not a verdict. Only without a complete check does the sampler's own warning stand in. Pure.
 */
import type { CellResult } from '../../model/cell.ts';
import type { Environment, HostCheck, HostCheckReading } from '../../model/environment.ts';
import { CHECK_FLOOR_TELLS, type HostVerdict, hostVerdict, type SamplerWarning } from '../../system/host-speed.ts';

export interface HostHealth {
  /** The statement, one paragraph. */
  text: string;
  /** Whether it warns (the host moved, or shared the CPU): renderers mark it. */
  warn: boolean;
}

type Cell = Pick<CellResult, 'flags' | 'runtime' | 'runtimeLabel' | 'scenario' | 'mode'>;

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${pct(Math.abs(x))}`;
const reading = (r: HostCheckReading): string => `${r.alone.join('/')} ms alone, ${r.together.join('/')} together`;

/** "+0.4 % between this run's start and end (within ±5.0 %; the check's own floor ±0.0 %)". */
function checkFigures(check: HostCheck, change: number, moved: boolean): string {
  return `${signed(change)} between this run's start and end (${moved ? 'beyond' : 'within'} ±${pct(check.threshold)}; the check's own floor ±${pct(check.floor)})`;
}

/** The sampler's warning in words, where it stands in for a check. */
function samplerText(w: SamplerWarning): string {
  if (w.kind === 'beyond-floor')
    return `⚠ The machine's speed moved during this run: a run of ${w.cell} read ${pct(w.deviation)} from that cell's other runs, ${(w.deviation / w.floor).toFixed(1)}x the sampler's floor of ±${pct(w.floor)}. Raw req/s may not reproduce; the paired ratios and the drift-cancelled figures (req/unit) are built to.`;
  return `⚠ The machine's speed moved during this run: ${w.min.toFixed(2)} to ${w.max.toFixed(2)} cores' worth from run to run (${w.ratio.toFixed(1)}x). Each interval holds the spread of this run's own runs; a run minutes later on this machine may land outside it (\`pnpm bench:compare\` counts the cells that reproduce).`;
}

/** What the host's verdict says of its speed, or undefined when nothing measured it. */
function speedClause(verdict: HostVerdict<Cell>, brief: boolean): { text: string; warn: boolean } | undefined {
  const moving = verdict.sampler === undefined ? undefined : samplerText(verdict.sampler);
  if (verdict.check === undefined) return moving === undefined ? undefined : { text: moving, warn: true };
  const { check } = verdict.check;
  const detail = brief
    ? ''
    : ` (fib(${check.n}) per CPU, ${reading(check.before)} before${check.after === undefined ? '' : `, ${reading(check.after)} after`})`;
  const change = check.change ?? 0;
  switch (verdict.check.reading) {
    case 'start-only':
      return {
        text: `The host check read the start only${detail}: whether the host held through the run is not known.${moving === undefined ? '' : ` ${moving}`}`,
        warn: moving !== undefined,
      };
    case 'moved':
      return { text: `⚠ The host's speed moved: independent check ${checkFigures(check, change, true)}${detail}.`, warn: true };
    case 'untold':
      return {
        text: `⚠ Whether the host held is not known: the independent check read ${checkFigures(check, change, false)}${detail}, and a floor over ±${pct(CHECK_FLOOR_TELLS)} cannot tell; the paired ratios hold, absolute figures may not.`,
        warn: true,
      };
    case 'held':
      return { text: `✓ The host held: independent check ${checkFigures(check, change, false)}${detail}.`, warn: false };
  }
}

/** Which cells shared the host, named; or that none did. */
function sharingClause({ shared }: HostVerdict<Cell>, cells: number, known: boolean): { text: string; warn: boolean } | undefined {
  if (shared.length === 0) return known && cells > 0 ? { text: 'No cell shared the host with other processes.', warn: false } : undefined;
  const names = shared.slice(0, 4).map((c) => `${c.runtimeLabel ?? c.runtime} ${c.scenario}/${c.mode}`);
  const more = shared.length > names.length ? `, and ${shared.length - names.length} more` : '';
  return {
    text: `⚠ Other processes used the CPU during runs of ${shared.length} of ${cells} cells (${names.join(', ')}${more}): their ratios read "could not tell", and \`bench:compare\` does not judge them.`,
    warn: true,
  };
}

/**
 * The host's health for the top of a report; `brief` leaves out the check's per-CPU readings (a
 * docs block's run line). Undefined when the report has neither a check, a sampler warning nor a cell.
 */
export function hostHealth(env: Environment, cells: readonly Cell[], brief = false): HostHealth | undefined {
  const verdict = hostVerdict(env, cells);
  const speed = speedClause(verdict, brief);
  const sharing = sharingClause(verdict, cells.length, speed !== undefined);
  const parts = [speed, sharing].filter((p) => p !== undefined);
  if (parts.length === 0) return undefined;
  return { text: parts.map((p) => p.text).join(' '), warn: parts.some((p) => p.warn) };
}
