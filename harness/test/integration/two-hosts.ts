/**
 * A second "host" on this machine for the remote tests: two network namespaces made here
 * (bench-load-<pid> for the harness, bench-srv-<pid> for the servers) joined by a veth pair
 * with addresses from 198.51.100.0/24 (TEST-NET-2, which none of this machine's interfaces
 * uses; its own sits in 192.0.2.0/24), and an sshd in the server namespace with a host key and
 * a user key made here in a temporary folder. Nothing else is ever a target. Everything is
 * removed by `close()`, also after a failure half-way through set-up.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const LOAD_ADDR = '198.51.100.1';
export const SERVER_ADDR = '198.51.100.2';
const SUBNET = '198.51.100.';

export interface TwoHosts {
  loadNs: string;
  serverNs: string;
  /** Name of the server side of the veth (inside serverNs), for tc. */
  serverDev: string;
  /** ssh config naming the server host `benchsrv` (key, address, known host key). */
  sshConfig: string;
  /** The same with a key the server does not accept. */
  wrongKeyConfig: string;
  host: string;
  sshdPid: number;
  /** Pids of processes in the server namespace other than the sshd listener. */
  serverNsProcesses(): number[];
  close(): void;
}

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 });
}

/** Why the two-host set-up cannot be built here, or undefined when it can. */
export function twoHostsUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root (network namespaces)';
  for (const bin of ['/usr/sbin/sshd', '/usr/bin/ssh', '/usr/bin/ssh-keygen'])
    if (!existsSync(bin)) return `${bin} is not installed (openssh-server / openssh-client)`;
  try {
    run('ip', ['netns', 'list']);
  } catch (error) {
    return `ip netns unavailable: ${(error as Error).message.split('\n')[0]}`;
  }
  const own = run('ip', ['-o', 'addr']);
  if (own.includes(`inet ${SUBNET}`)) return `this machine already uses ${SUBNET}0/24`;
  return undefined;
}

export async function makeTwoHosts(): Promise<TwoHosts> {
  const id = process.pid;
  const loadNs = `bench-load-${id}`;
  const serverNs = `bench-srv-${id}`;
  const loadDev = `bl${id}`;
  const serverDev = `bs${id}`;
  const dir = mkdtempSync(join(tmpdir(), 'bench-two-hosts-'));
  let sshd: ChildProcess | undefined;
  const close = () => {
    if (sshd?.pid !== undefined) {
      try {
        process.kill(sshd.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    // Anything left in the server namespace (a failed test's servers) goes with it.
    for (const pid of nsPids(serverNs)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    for (const ns of [loadNs, serverNs]) {
      try {
        run('ip', ['netns', 'delete', ns]);
      } catch {
        // not made
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('ip', ['netns', 'add', loadNs]);
    run('ip', ['netns', 'add', serverNs]);
    run('ip', ['link', 'add', loadDev, 'netns', loadNs, 'type', 'veth', 'peer', 'name', serverDev, 'netns', serverNs]);
    for (const [ns, dev, addr] of [
      [loadNs, loadDev, LOAD_ADDR],
      [serverNs, serverDev, SERVER_ADDR],
    ] as const) {
      run('ip', ['-n', ns, 'addr', 'add', `${addr}/24`, 'dev', dev]);
      run('ip', ['-n', ns, 'link', 'set', dev, 'up']);
      run('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
    }
    for (const key of ['host_key', 'user_key', 'other_key'])
      run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'bench-test', '-f', join(dir, key)]);
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')));
    writeFileSync(
      join(dir, 'known_hosts'),
      `${SERVER_ADDR} ${readFileSync(join(dir, 'host_key.pub'), 'utf8').split(' ').slice(0, 2).join(' ')}\n`,
    );
    writeFileSync(
      join(dir, 'sshd_config'),
      [
        `ListenAddress ${SERVER_ADDR}:22`,
        `HostKey ${join(dir, 'host_key')}`,
        `PidFile ${join(dir, 'sshd.pid')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        'PermitRootLogin prohibit-password',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        'StrictModes no',
        'PrintMotd no',
        // npm on the "server host" has no network (its namespace has none): the ssh client below
        // points it at a closed port without retries, so an unreachable registry fails at once.
        'AcceptEnv npm_config_registry npm_config_fetch_retries',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'ssh_config'),
      [
        'Host benchsrv',
        `  HostName ${SERVER_ADDR}`,
        '  User root',
        `  IdentityFile ${join(dir, 'user_key')}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
        '  StrictHostKeyChecking yes',
        '  LogLevel ERROR',
        '  SetEnv npm_config_registry=http://127.0.0.1:9/ npm_config_fetch_retries=0',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'ssh_config_wrong_key'), readFileSync(join(dir, 'ssh_config'), 'utf8').replace('user_key', 'other_key'));
    mkdirSync('/run/sshd', { recursive: true });
    sshd = spawn('ip', ['netns', 'exec', serverNs, '/usr/sbin/sshd', '-D', '-e', '-f', join(dir, 'sshd_config')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let sshdErr = '';
    sshd.stderr?.setEncoding('utf8').on('data', (c: string) => (sshdErr += c));
    // ip netns exec execs sshd: the pid is the listener's.
    const deadline = Date.now() + 10_000;
    while (!run('ip', ['netns', 'exec', serverNs, 'ss', '-ltnH']).includes(`${SERVER_ADDR}:22`)) {
      if (sshd.exitCode !== null || Date.now() > deadline) throw new Error(`sshd did not start: ${sshdErr.trim()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const sshdPid = sshd.pid ?? 0;
    return {
      loadNs,
      serverNs,
      serverDev,
      sshConfig: join(dir, 'ssh_config'),
      wrongKeyConfig: join(dir, 'ssh_config_wrong_key'),
      host: 'benchsrv',
      sshdPid,
      serverNsProcesses: () => nsPids(serverNs).filter((p) => p !== sshdPid),
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

function nsPids(ns: string): number[] {
  try {
    return run('ip', ['netns', 'pids', ns])
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(Number);
  } catch {
    return [];
  }
}
