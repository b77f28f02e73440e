import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { creatableDir, FlagError, numberFlag, plainNumber } from '../src/cli/flags.ts';
import { CommandError } from '../src/cli/command.ts';
import { parsePlan } from '../src/bench/plan.ts';
import { parseCurvePlan } from '../src/curve/curve-plan.ts';

describe('strict numbers on the command line', () => {
  it.each(['0x3', '1e1', '3.0', ' 3', '3 ', '+3', '', '3_0', 'Infinity', '0b11'])('an integer flag refuses %j', (raw) => {
    expect(() => parsePlan(['--runs', raw])).toThrow(FlagError);
    expect(() => parsePlan(['--runs', raw])).toThrow(`--runs must be an integer from 1 to 100, got "${raw}"`);
  });

  it('an integer flag takes digits, within its bounds', () => {
    expect(parsePlan(['--runs', '3']).runs).toBe(3);
    expect(parsePlan(['--runs', '007']).runs).toBe(7);
    expect(numberFlag('seed', '0', 0, 10, true)).toBe(0);
    expect(numberFlag('offset', '-2', -5, 5, true)).toBe(-2);
    expect(() => numberFlag('runs', '101', 1, 100, true)).toThrow(/from 1 to 100/);
  });

  it.each(['1e1', '0x3', ' 2', '2s', '.', '1.2.3'])('a number flag refuses %j', (raw) => {
    expect(() => parsePlan(['--duration', raw])).toThrow(`--duration must be a number from 0.1 to 3600, got "${raw}"`);
  });

  it('a number flag takes plain decimals', () => {
    expect(parsePlan(['--duration', '0.5']).durationSec).toBe(0.5);
    expect(parsePlan(['--duration', '.5']).durationSec).toBe(0.5);
    expect(parsePlan(['--duration', '2.']).durationSec).toBe(2);
    expect(plainNumber('3.0', false)).toBe(3);
    expect(plainNumber('3.0', true)).toBeUndefined();
  });

  it("bench:curve's own number lists are as strict", () => {
    expect(() => parseCurvePlan(['--rates', '10,1e2'])).toThrow(/--rates: "1e2"/);
    expect(parseCurvePlan(['--rates', '10, 20.5']).rates).toEqual([10, 20.5]);
  });

  it('a flag error is a command error: one line and exit 2 in every command', () => {
    expect(new FlagError('x')).toBeInstanceOf(CommandError);
  });
});

describe('creatableDir: --out checked without making it', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'creatable-dir-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('passes a nested folder that does not exist yet, and makes nothing', () => {
    const dir = join(tmp, 'a', 'b', 'c');
    expect(creatableDir('out', dir)).toBe(dir);
    expect(existsSync(join(tmp, 'a'))).toBe(false);
  });

  it('passes a folder that exists', () => {
    expect(creatableDir('out', tmp)).toBe(tmp);
  });

  it('refuses a path under a file, and a file itself, as a FlagError', () => {
    const file = join(tmp, 'file');
    writeFileSync(file, '');
    expect(() => creatableDir('out', join(file, 'x', 'y'))).toThrow(FlagError);
    expect(() => creatableDir('out', join(file, 'x', 'y'))).toThrow(`--out ${join(file, 'x', 'y')} is not a writable folder: ENOTDIR`);
    expect(() => creatableDir('out', file)).toThrow(FlagError);
    expect(existsSync(join(file, 'x'))).toBe(false);
  });

  it('refuses a path under a file it cannot write to (/proc/version) in one line', () => {
    expect(() => creatableDir('out', '/proc/version/results')).toThrow(FlagError);
    expect(() => creatableDir('out', '/proc/version/results')).toThrow(
      /^--out \/proc\/version\/results is not a writable folder: ENOTDIR$/,
    );
  });
});
