// Run by the permission test with exactly the flags the Deno server gets (command.ts), in place
// of server.ts: each line reports whether one action was allowed.
const dataDir = Deno.args[Deno.args.indexOf('--data-dir') + 1] ?? '';

async function attempt(name: string, action: () => unknown | Promise<unknown>): Promise<void> {
  try {
    await action();
    console.log(`${name}: allowed`);
  } catch (error) {
    console.log(`${name}: ${(error as Error).name === 'NotCapable' ? 'denied' : `error ${(error as Error).name}`}`);
  }
}

await attempt('read data dir', () => Deno.readDirSync(dataDir));
await attempt('read /etc/passwd', () => Deno.readTextFileSync('/etc/passwd'));
await attempt('write data dir', () => Deno.writeTextFileSync(`${dataDir}/intruder.txt`, 'x'));
await attempt('run a subprocess', () => new Deno.Command('true').outputSync());
await attempt('listen on 127.0.0.1', () => Deno.listen({ hostname: '127.0.0.1', port: 0 }).close());
await attempt('connect to 127.0.0.2', async () => (await Deno.connect({ hostname: '127.0.0.2', port: 9 })).close());
await attempt('load a system library', () => Deno.dlopen('libc.so.6', {}));
await attempt('read env', () => Deno.env.get('HOME'));
