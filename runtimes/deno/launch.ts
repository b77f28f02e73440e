// `pnpm serve:deno [flags]`: runs the Deno server with the permissions from command.ts.
import { spawn } from 'node:child_process';
import { denoArgs, denoBinary } from './command.ts';

const child = spawn(denoBinary(), denoArgs(process.argv.slice(2)), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128 + (signal === 'SIGINT' ? 2 : 15))));
