/**
 * The server host of a --server-host run as servers/ sees it (servers/server-host.ts): servers started
 * over ssh, files evicted there, round trips measured between the two hosts. Built by the entry
 * point from what the preflight found, so servers/ never reaches into remote/ itself.
 */
import type { RuntimeSpec } from '../servers/runtimes.ts';
import type { ServerHost } from '../servers/server-host.ts';
import { movePath, type RemoteSetup } from './preflight.ts';
import { remoteColdSupport, remoteEvictAndVerify } from './remote-cold.ts';
import { startRemoteServer } from './remote-server.ts';
import { measureNetwork, networkLine, RTT_SAMPLES } from './rtt.ts';

export function serverHostOf(setup: RemoteSetup): ServerHost {
  const { target } = setup;
  return {
    environment: setup.environment,
    ...(setup.manifest === undefined ? {} : { manifest: setup.manifest }),
    mtu: setup.mtu,
    movePath: (path) => movePath(path, target.dir),
    // A named version (label) was resolved on the server host itself (remote-versions.ts).
    installation: (local: RuntimeSpec) =>
      (local.label === undefined ? undefined : setup.versions?.get(local.label)) ?? setup.runtimes.get(local.name),
    startServer: (spec, options) => startRemoteServer(spec, target, options),
    coldSupport: (paths) => remoteColdSupport(target, paths),
    evictAndVerify: async (paths) => (await remoteEvictAndVerify(target, paths)).ok,
    networkProbeDescription: `TCP connect both ways, ${RTT_SAMPLES} GET /health`,
    measureNetwork: async (spec, serverArgs) => {
      const network = await measureNetwork(spec, target, serverArgs, setup.loadAddress);
      return { network, line: networkLine(network) };
    },
  };
}
