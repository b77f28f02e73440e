/**
 * The one statement about the host at the top of every report, console summary and docs block:
 * whether its speed held (the independent check, with its figures) and which cells shared it.
 * Four guards read the host's speed (the independent check, the speed sampler, the reference
 * loop between rounds, the slow-run rule); this is the only place that turns them into a
 * statement, so the top of a report cannot say three things about one steady host. The
 * independent check decides: where it held, nothing here warns about the machine's speed, as a
 * run that scatters is a fact about its cell (the cell's ± and its "unstable" flag say so), and
 * the reference loop's range is an input to req/unit (environment table), not a verdict. Only
 * without a complete check does the sampler's own warning stand in. Pure.
 */
import type { CellResult } from '../../model/cell.ts';
import type { Environment, HostCheck, HostCheckReading } from '../../model/environment.ts';
import { movingMachineText } from './precision.ts';

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

/** The check's own floor past which it cannot tell a steady host from one that moved: twice the ±5 % precision goal of a heavy cell. */
const CHECK_FLOOR_TELLS = 0.1;

/** "+0.4 % between this run's start and end (within ±5.0 %; the check's own floor ±0.0 %)". */
function checkFigures(check: HostCheck, change: number): string {
  const side = check.moved === true ? 'beyond' : 'within';
  return `${signed(change)} between this run's start and end (${side} ±${pct(check.threshold)}; the check's own floor ±${pct(check.floor)})`;
}

/** What the independent check says, or undefined when none ran. */
function speedClause(env: Environment, brief: boolean): { text: string; warn: boolean } | undefined {
  const check = env.hostCheck;
  if (check === undefined) {
    const moving = movingMachineText(env);
    return moving === undefined ? undefined : { text: moving, warn: true };
  }
  const detail = brief
    ? ''
    : ` (fib(${check.n}) per CPU, ${reading(check.before)} before${check.after === undefined ? '' : `, ${reading(check.after)} after`})`;
  if (check.after === undefined || check.change === undefined) {
    const moving = movingMachineText(env);
    return {
      text: `The host check read the start only${detail}: whether the host held through the run is not known.${moving === undefined ? '' : ` ${moving}`}`,
      warn: moving !== undefined,
    };
  }
  if (check.moved === true)
    return { text: `⚠ The host's speed moved: independent check ${checkFigures(check, check.change)}${detail}.`, warn: true };
  // A check whose two readings before the run already disagree this much cannot tell a host
  // that held from one that moved by tens of per cent: "held" would claim what it did not see.
  if (check.floor > CHECK_FLOOR_TELLS)
    return {
      text: `⚠ Whether the host held is not known: the independent check read ${checkFigures(check, check.change)}${detail}, and a floor over ±${pct(CHECK_FLOOR_TELLS)} cannot tell; the paired ratios hold, absolute figures may not.`,
      warn: true,
    };
  return { text: `✓ The host held: independent check ${checkFigures(check, check.change)}${detail}.`, warn: false };
}

/** Which cells shared the host, named; or that none did. */
function sharingClause(cells: readonly Cell[], known: boolean): { text: string; warn: boolean } | undefined {
  const shared = cells.filter((c) => c.flags.includes('shared-host'));
  if (shared.length === 0)
    return known && cells.length > 0 ? { text: 'No cell shared the host with other processes.', warn: false } : undefined;
  const names = shared.slice(0, 4).map((c) => `${c.runtimeLabel ?? c.runtime} ${c.scenario}/${c.mode}`);
  const more = shared.length > names.length ? `, and ${shared.length - names.length} more` : '';
  return {
    text: `⚠ Other processes used the CPU during runs of ${shared.length} of ${cells.length} cells (${names.join(', ')}${more}): their ratios read inconclusive, and \`bench:compare\` does not judge them.`,
    warn: true,
  };
}

/**
 * The host's health for the top of a report; `brief` leaves out the check's per-CPU readings (a
 * docs block's run line). Undefined when the report has neither a check, a sampler warning nor a cell.
 */
export function hostHealth(env: Environment, cells: readonly Cell[], brief = false): HostHealth | undefined {
  const speed = speedClause(env, brief);
  const sharing = sharingClause(cells, speed !== undefined);
  const parts = [speed, sharing].filter((p) => p !== undefined);
  if (parts.length === 0) return undefined;
  return { text: parts.map((p) => p.text).join(' '), warn: parts.some((p) => p.warn) };
}
