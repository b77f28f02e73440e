import { describe, expect, it } from 'vitest';
import { createProgress, type ProgressState } from '../src/bench/progress.ts';

function plainStream(): { stream: NodeJS.WriteStream; lines: () => string[] } {
  let text = '';
  const stream = {
    isTTY: false,
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, lines: () => text.split('\n').filter((l) => l !== '') };
}

const at = (runtime: string, phase: string, cell = 1): ProgressState => ({
  cell,
  cells: 2,
  runtime,
  scenario: 'fib',
  mode: 'sync',
  phase,
  etaSec: 43,
});

describe('the plain progress lines (CI logs, pipes)', () => {
  it('says where a cell on each lane starts once, however often its servers restart and check again', () => {
    const { stream, lines } = plainStream();
    const progress = createProgress(stream);
    // bench:ab: a new pair of server processes every 2 rounds, each checked before it is measured.
    for (let pair = 0; pair < 3; pair++)
      for (const lane of ['node-A', 'node-B']) for (const phase of ['check', 'warm-up', 'run 1', 'run 2']) progress.update(at(lane, phase));
    progress.log('node-A fib/sync: 356 req/s');
    progress.update(at('node-A', 'check (loop)', 2));
    expect(lines()).toEqual([
      '[1/2] node-A fib/sync check · ETA 43s',
      '[1/2] node-B fib/sync check · ETA 43s',
      'node-A fib/sync: 356 req/s',
      '[2/2] node-A fib/sync check (loop) · ETA 43s',
    ]);
  });
});
