/**
 * The run's meta (meta.json, then the report's environment, parameters and runtimes): what the
 * setup knew at the start, with what the later phases returned, put together in one place. It is
 * written as the run goes (a stop at once reads it back) and once more at the end.
 */
import type { Environment } from '../model/environment.ts';
import type { Parameters } from '../model/parameters.ts';
import type { RuntimeEntry } from '../model/report.ts';
import type { RunMeta } from '../model/run-files.ts';

/** What the phases after the setup found that the meta records. */
export interface Found {
  /** The lanes' installations (bench/lanes.ts runLanes), their status as the servers left it. */
  runtimes: readonly RuntimeEntry[];
  autoProcesses?: Parameters['autoProcesses'];
  /** --server-host: the round trips there (run-setup.ts measureRoundTrip). */
  network?: Environment['network'];
  /** The latest reading-in of the file inputs (run-setup.ts primeFor). */
  filesPrimed?: Parameters['filesPrimed'];
  /** The host check with its reading after the runs (run-setup.ts closeRun). */
  hostCheck?: Environment['hostCheck'];
  machineSpeed?: Environment['machineSpeed'];
  referenceLoop?: Environment['referenceLoop'];
}

/** The start's meta with what was found since, in the order the report has always listed them. */
export function runMeta(start: RunMeta, found: Found): RunMeta {
  const { network, hostCheck, machineSpeed, referenceLoop, autoProcesses, filesPrimed } = found;
  return {
    createdAt: start.createdAt,
    environment: {
      ...start.environment,
      ...(network === undefined ? {} : { network }),
      ...(hostCheck === undefined ? {} : { hostCheck }),
      ...(machineSpeed === undefined ? {} : { machineSpeed }),
      ...(referenceLoop === undefined ? {} : { referenceLoop }),
    },
    parameters: {
      ...start.parameters,
      ...(autoProcesses === undefined ? {} : { autoProcesses }),
      ...(filesPrimed === undefined ? {} : { filesPrimed }),
    },
    runtimes: [...found.runtimes],
  };
}
