/** report.json's environment: the machine, its speed and the path to another host. */

export interface Environment {
  os: string;
  kernel: string;
  /** count: the machine's online CPUs; added: available, the CPUs the harness itself may use when fingerprinted. */
  cpu: { model: string; count: number; available?: number };
  memoryBytes: number;
  commit: string;
  dirty: boolean;
  loadGenerator: { name: 'autocannon'; version: string };
  /** added: host Node running the harness. */
  harnessNode: string;
  /** added: the CPUs of load generator and servers, or why they were not pinned. */
  /** added: clientCpus, serverCpus and autocannonWorkers when pinned. */
  pinning?: { client: string; server: string; clientCpus?: number; serverCpus?: number; autocannonWorkers?: number } | { reason: string };
  /** added, --server-host: the other host the servers ran on, and the network between. */
  serverHost?: ServerHostEnvironment;
  network?: NetworkPath;
  /** added: how fast the machine was through the run (speed sampler). */
  machineSpeed?: SpeedSummary;
  /** added: whether the host's speed held between the run's start and end (a pinned loop before and after). */
  hostCheck?: HostCheck;
  /** added: the pinned reference loop measured in every round (bench/reference.ts), over the run: its range and floor. */
  referenceLoop?: { unit: string; minMs: number; maxMs: number; medianMs: number; rounds: number };
  /** added: what touching fresh memory cost on this host when the run began (system/first-touch.ts). */
  memoryFirstTouch?: FirstTouch;
}

/**
 * Where a server figure came from: "proc", this host's /proc read from outside (CPU of every
 * thread, peak RSS sampled every 100 ms); "stats", the server's own /stats (process CPU time
 * and RSS at the end of the run; the only source for a server on another host, and for loop
 * lag everywhere); "none", neither could be had (e.g. a raw server, which has no /stats).
 */
export interface ServerSources {
  cpu: 'proc' | 'stats' | 'none';
  rss: 'proc' | 'stats' | 'none';
  lag: 'stats' | 'none';
}

/** added: the server host of a run with --server-host, as seen over ssh before the run. */
export interface ServerHostEnvironment {
  host: string;
  os: string;
  kernel: string;
  cpu: { model: string; count: number };
  memoryBytes: number;
  /** The checkout used there. */
  dir: string;
  /** The address the servers bound there, and how it was chosen. */
  bind: string;
  bindSource: 'flag' | 'ssh-connection';
}

/** added: min/median/max of one kind of round trip, in ms. */
export interface RoundTrip {
  median: number;
  min: number;
  max: number;
  samples: number;
}

/** added: the path between the load host and the server host (--server-host). */
export interface NetworkPath {
  /**
   * The HTTP round trip of GET /health on a server of this run (keep-alive), before any cell:
   * network, both hosts' TCP stacks, the HTTP client here and the app there. Older reports have
   * only this name; the same figure is httpRttMs now (both written, for old readers).
   */
  rttMs?: RoundTrip & { runtime: string };
  /** added: the same HTTP round trip as rttMs, named for what it measures. */
  httpRttMs?: RoundTrip & { runtime: string };
  /**
   * added: the network's own round trip, as TCP connect time (SYN to SYN-ACK, one
   * round trip plus the two kernels): from the load host to the server's port, and from the
   * server host back to a listener opened on the load host for the purpose. A side that could
   * not be measured says why.
   */
  tcpConnectMs?: {
    fromLoadHost?: RoundTrip;
    fromServerHost?: RoundTrip;
    unavailable?: { fromLoadHost?: string; fromServerHost?: string };
  };
  /** Why the round trip could not be measured (its server did not start). */
  rttUnavailable?: string;
  /** Interface MTU on each side where it could be read. */
  mtu: { client?: number; server?: number };
}

/** added, environment.memoryFirstTouch: fresh memory touched a page at a time (system/first-touch.ts). */
export interface FirstTouch {
  /** Median over the rounds of the time per 4 KB page, in microseconds. */
  usPerPage: number;
  /** The same as a rate: GB of fresh memory touched per second. */
  gbPerSec: number;
  /** Median share of pages that faulted (1 = a fault a page; below when the kernel maps larger folios). */
  faultsPerPage: number;
  /** Rounds of `mb` MB that got fresh pages (a fault for at least half of them); others are left out. */
  rounds: number;
  mb: number;
}

/** added, environment.machineSpeed: the speed sampler over the whole run. */
export interface SpeedSummary {
  vcpus: number;
  pinned: boolean;
  intervalMs: number;
  /** Lowest and highest per-run cores' worth seen in this run. */
  coresWorth?: { min: number; max: number };
  /** The sampler's own CPU once started, per cent of one CPU, summed over its children. */
  overheadPercent: number;
  samples: number;
  /** added: the unit timed, fib(n). */
  unitFibN?: number;
  /** added: what counts as full speed ("median of the warm-up units"; it was the fastest unit, an outlier). */
  reference?: string;
  /** added: the noise of a run's reading on an idle CPU, as a share (system/speed-math.ts idleFloor). */
  idleFloor?: number;
  /** added: whether a run's reading left its cell's other runs by more than the sampler's floor, and the worst one (system/host-speed.ts samplerMove). */
  moved?: { beyondFloor: boolean; worst?: { cell: string; deviation: number; floor: number } };
}

/**
 * added: the independent check of the host's speed (bench/reference.ts; judged in system/host-speed.ts): a pinned fib loop on
 * each CPU alone, then on every CPU together, before the first cell and after the last.
 */
export interface HostCheck {
  /** The loop: fib(n), `calls` calls a CPU in each reading (fewer with --quick), each reading the lower quartile of its calls per CPU in ms. */
  n: number;
  calls: number;
  before: HostCheckReading;
  after?: HostCheckReading;
  /** The host's speed after over before, minus 1 (a slowdown reads negative), from each reading's median call over CPUs and ways (alone, together). */
  change?: number;
  /** The check's own repeatability at the start, as a share: two readings back to back (each reading kept is the faster of two). */
  floor: number;
  /** The threshold used: the larger of 3 x floor and 5 % (system/host-speed.ts checkThreshold). */
  threshold: number;
  /** Whether |change| exceeds the threshold: the host's speed moved between the run's start and end. */
  moved?: boolean;
}

export interface HostCheckReading {
  at: string;
  /** ms per call, per CPU, each CPU alone. */
  alone: number[];
  /** ms per call, per CPU, all CPUs at once. */
  together: number[];
}
