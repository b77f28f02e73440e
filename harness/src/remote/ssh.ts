/**
 * The system `ssh` client as the only transport to the server host: no daemon of ours listens
 * anywhere. Identity, port, jump hosts and host keys come from the user's ssh configuration
 * (`--ssh-config FILE` is passed as `-F FILE`); we add only BatchMode (never a password prompt)
 * and -T (no terminal). No key material ever appears in our flags, logs or reports.
 */
import { execFile, execFileSync } from 'node:child_process';
import type { RemoteTarget } from '../servers/server-host.ts';

/** The host part of `[user@]host`, for reports: the user name is not recorded. */
export function hostOf(destination: string): string {
  return destination.slice(destination.lastIndexOf('@') + 1);
}

/** One word for the remote shell: ssh joins its arguments with spaces and the remote shell splits them again. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * argv for ssh running `remoteArgv` on the target. `extra` are ssh options for this call only
 * (e.g. a connect timeout for the preflight). Server alive messages make a dead network end the
 * local ssh within about 15 s; the remote side has its own watchdog (remote-server.ts).
 */
export function sshArgv(target: Pick<RemoteTarget, 'destination' | 'sshConfig'>, remoteArgv: string[], extra: string[] = []): string[] {
  return [
    ...(target.sshConfig === undefined ? [] : ['-F', target.sshConfig]),
    '-o',
    'BatchMode=yes',
    '-o',
    'ServerAliveInterval=5',
    '-o',
    'ServerAliveCountMax=3',
    ...extra,
    '-T',
    target.destination,
    '--',
    remoteArgv.map(shellQuote).join(' '),
  ];
}

/** Why ssh cannot be used at all here, or undefined when it can. */
export function missingSshReason(): string | undefined {
  try {
    execFileSync('ssh', ['-V'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5_000 });
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? 'the ssh client is not installed (apt-get install openssh-client)'
      : `ssh -V failed: ${(error as Error).message.split('\n')[0]}`;
  }
}

export interface SshOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one short remote command and collects its output. */
export function sshRun(
  target: Pick<RemoteTarget, 'destination' | 'sshConfig'>,
  remoteArgv: string[],
  timeoutMs = 30_000,
): Promise<SshOutcome> {
  return new Promise((resolve) => {
    const argv = sshArgv(target, remoteArgv, ['-o', `ConnectTimeout=${Math.max(1, Math.round(timeoutMs / 3000))}`]);
    const child = execFile('ssh', argv, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end();
  });
}

/**
 * ssh's own failures (exit 255) in one line a user can act on: unreachable, refused
 * authentication, unknown host key, or ssh's own last line.
 */
export function describeSshFailure(destination: string, stderr: string): string {
  const last =
    stderr
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .at(-1)
      ?.trim() ?? 'no message';
  if (/Permission denied|Too many authentication failures|no more authentication methods/i.test(stderr)) {
    return `ssh to ${destination}: authentication refused (${last}); the harness uses key authentication with BatchMode, set the key in your ssh config (--ssh-config)`;
  }
  if (/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/i.test(stderr)) {
    return `ssh to ${destination}: host key not verified (${last}); add the host key to known_hosts or your ssh config`;
  }
  if (
    /Could not resolve hostname|Connection refused|timed out|No route to host|Network is unreachable|Connection closed|Connection reset/i.test(
      stderr,
    )
  ) {
    return `ssh to ${destination}: host unreachable (${last})`;
  }
  return `ssh to ${destination} failed: ${last}`;
}
