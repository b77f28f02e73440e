import type { CellResult } from '../model/cell.ts';
import type { CellProfile } from '../model/profile.ts';
/** How a finished cell and a cell's profile are said in the log: words the entry point gives (report/text/progress-lines.ts). */
export interface ProgressLines {
  cell(cell: CellResult, connectionsSwept: boolean): string;
  profile(cell: CellResult, profile: CellProfile): string;
}

/** Where the run says how far it is: a live line on a terminal, plain lines otherwise (CI, pipes). */
export interface Progress {
  /** A position update: cell i of n, what runs now, and the estimated time left. */
  update(state: ProgressState): void;
  /** A line that stays (a finished cell, a warning). */
  log(line: string): void;
  done(): void;
}

export interface ProgressState {
  cell: number;
  cells: number;
  runtime: string;
  scenario: string;
  mode: string;
  phase: string;
  etaSec: number;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const live = stream.isTTY === true;
  let current = '';
  // Plain mode prints a cell's position once: servers restarted within a cell (bench:ab's pairs of
  // processes, --server-processes) check again, and each check would repeat the line unchanged.
  const printed = new Set<string>();
  const clear = () => {
    if (live && current !== '') stream.write('\r\x1b[2K');
  };
  return {
    update(state) {
      const where = `[${state.cell}/${state.cells}] ${state.runtime} ${state.scenario}/${state.mode}`;
      const line = `${where} ${state.phase} · ETA ${formatEta(state.etaSec)}`;
      if (live) {
        clear();
        current = line.slice(0, (stream.columns ?? 120) - 1);
        stream.write(current);
      } else if (state.phase.startsWith('check') && !printed.has(where)) {
        // Plain mode: one line per cell on each lane, not per phase, so CI logs stay readable.
        printed.add(where);
        stream.write(`${line}\n`);
      }
    },
    log(line) {
      clear();
      stream.write(`${line}\n`);
      if (live && current !== '') stream.write(current);
    },
    done() {
      clear();
      current = '';
    },
  };
}

export function formatEta(sec: number): string {
  const s = Math.max(0, Math.round(sec));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
