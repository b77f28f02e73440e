import { describe, expect, it } from 'vitest';
import {
  bestSetting,
  clientFigures,
  closestSetting,
  isUnstable,
  judgeServer,
  ratioSummary,
  settingLabel,
  settingsGrid,
  verdict,
  type AutocannonSetting,
  type ServerCalibration,
  type SettingResult,
} from '../src/calibrate/calibration-math.ts';
import { CEILING_OK_RATIO } from '../src/model/thresholds.ts';

function setting(connections: number, workers: number, autocannonMedian: number, wrkMedian: number | null): SettingResult {
  return {
    setting: { connections, workers },
    autocannon: {
      runs: [autocannonMedian],
      median: autocannonMedian,
      cv: 0,
      failedAnswers: 0,
      serverCpuPercent: 50,
      clientCpuPercent: 100,
    },
    wrk: wrkMedian === null ? null : { runs: [wrkMedian], median: wrkMedian, cv: 0, failedAnswers: 0, serverCpuPercent: 100 },
    ratio: wrkMedian === null || wrkMedian === 0 ? null : autocannonMedian / wrkMedian,
  };
}

function server(settings: SettingResult[]): ServerCalibration {
  return { runtime: 'bun', server: 'raw', version: '1', status: 'ok', settings, best: null };
}

describe('ratioSummary', () => {
  it('is the median of autocannon over the median of wrk, not a median of per-run ratios', () => {
    // per-run ratios 0.25, 1, 0.9 have median 0.9; the medians 10 and 20 give 0.5
    expect(ratioSummary([5, 10, 18], [20, 10, 20])).toEqual({ autocannonMedian: 10, wrkMedian: 20, ratio: 0.5 });
  });

  it('takes the mean of the two middle runs for an even count', () => {
    expect(ratioSummary([1, 2, 3, 4], [4, 6])).toEqual({ autocannonMedian: 2.5, wrkMedian: 5, ratio: 0.5 });
  });

  it('has no ratio without wrk runs, or when wrk got nothing', () => {
    expect(ratioSummary([100], [])).toEqual({ autocannonMedian: 100, wrkMedian: null, ratio: null });
    expect(ratioSummary([100], [0])).toEqual({ autocannonMedian: 100, wrkMedian: 0, ratio: null });
  });
});

describe('bestSetting', () => {
  it('picks the highest ratio, not the highest autocannon figure, when every setting has wrk runs', () => {
    // The second setting's autocannon figure is higher only because the machine was quieter.
    const a = setting(10, 0, 9_000, 10_000);
    const b = setting(50, 0, 9_500, 19_000);
    expect(bestSetting([a, b])).toBe(a);
  });

  it('picks the highest autocannon median without wrk', () => {
    const a = setting(10, 0, 9_000, null);
    const b = setting(50, 2, 12_000, null);
    expect(bestSetting([a, b])).toBe(b);
  });

  it('breaks ties towards fewer workers, then fewer connections', () => {
    const a = setting(50, 1, 8_000, 10_000);
    const b = setting(10, 1, 8_000, 10_000);
    const c = setting(50, 0, 8_000, 10_000);
    expect(bestSetting([a, b, c])).toBe(c);
    expect(bestSetting([a, b])).toBe(b);
  });

  it('is undefined for no settings', () => {
    expect(bestSetting([])).toBeUndefined();
  });
});

describe('verdict', () => {
  it(`reaches the ceiling at ${CEILING_OK_RATIO} of wrk and above`, () => {
    expect(verdict(0.9)).toEqual({ ceilingOk: true, unstable: false, text: '>= 0.9 of wrk' });
    expect(verdict(1.05).ceilingOk).toBe(true);
  });

  it('calls anything below client-bound, with the fraction reached', () => {
    expect(verdict(0.8999)).toEqual({ ceilingOk: false, unstable: false, text: 'client-bound: autocannon reaches 0.90 of wrk' });
    expect(verdict(0.412)).toEqual({ ceilingOk: false, unstable: false, text: 'client-bound: autocannon reaches 0.41 of wrk' });
  });

  it('says why there is no verdict', () => {
    expect(verdict(null, 'wrk not found on PATH')).toEqual({
      ceilingOk: null,
      unstable: false,
      text: 'ceiling unknown: wrk not found on PATH',
    });
  });

  it('says when the runs behind it were unstable', () => {
    expect(verdict(0.5, undefined, true)).toEqual({
      ceilingOk: false,
      unstable: true,
      text: 'client-bound: autocannon reaches 0.50 of wrk (unstable runs: rerun on a quieter machine)',
    });
  });

  it('judgeServer joins the best setting and its verdict', () => {
    const best = setting(50, 2, 9_500, 10_000);
    expect(judgeServer([setting(10, 0, 5_000, 10_000), best])).toEqual({
      ...best,
      ceilingOk: true,
      unstable: false,
      text: '>= 0.9 of wrk',
    });
    expect(judgeServer([])).toBeNull();
  });

  it('judgeServer marks the verdict unstable when either client varied more than UNSTABLE_CV', () => {
    const noisyWrk = setting(50, 0, 9_500, 10_000);
    noisyWrk.wrk = { runs: [5_000, 10_000, 15_000], median: 10_000, cv: 0.5, failedAnswers: 0, serverCpuPercent: 99 };
    expect(judgeServer([noisyWrk])).toMatchObject({ ceilingOk: true, unstable: true });
    const steady = setting(50, 0, 9_500, 10_000);
    expect(isUnstable(steady)).toBe(false);
    expect(isUnstable({ ...steady, autocannon: { ...steady.autocannon, cv: 0.11 } })).toBe(true);
  });
});

describe('closestSetting', () => {
  it('picks the setting with the highest median ratio across servers', () => {
    const results = [
      server([setting(10, 0, 5_000, 10_000), setting(10, 2, 8_000, 10_000)]),
      server([setting(10, 0, 7_000, 10_000), setting(10, 2, 6_000, 10_000)]),
      server([setting(10, 0, 6_000, 10_000), setting(10, 2, 9_000, 10_000)]),
    ];
    // in-process ratios 0.5, 0.7, 0.6 -> 0.6; 2 workers 0.8, 0.6, 0.9 -> 0.8
    expect(closestSetting(results)).toEqual({ setting: { connections: 10, workers: 2 }, medianRatio: 0.8 });
  });

  it('is null when no ratio was measured', () => {
    expect(closestSetting([server([setting(10, 0, 5_000, null)])])).toBeNull();
    expect(closestSetting([])).toBeNull();
  });
});

describe('clientFigures', () => {
  it('keeps the runs, their median and CV', () => {
    expect(clientFigures([10, 12, 14])).toEqual({ runs: [10, 12, 14], median: 12, cv: 2 / 12 });
    expect(clientFigures([7])).toEqual({ runs: [7], median: 7, cv: 0 });
  });
});

describe('settings', () => {
  it('grid: every connections x workers, in-process first', () => {
    const grid: AutocannonSetting[] = settingsGrid([10, 50], [0, 2]);
    expect(grid).toEqual([
      { connections: 10, workers: 0 },
      { connections: 50, workers: 0 },
      { connections: 10, workers: 2 },
      { connections: 50, workers: 2 },
    ]);
  });

  it('labels', () => {
    expect(settingLabel({ connections: 50, workers: 0 })).toBe('50 conn, in-process');
    expect(settingLabel({ connections: 10, workers: 1 })).toBe('10 conn, 1 worker');
    expect(settingLabel({ connections: 10, workers: 2 })).toBe('10 conn, 2 workers');
  });
});

describe('server CPU during calibration', () => {
  it('is the median of the runs that could read it, and n/a (null), never 0, when none could (a server on another host)', async () => {
    const { serverCpuOf } = await import('../src/calibrate/calibrate.ts');
    expect(serverCpuOf([{ serverCpuPercent: 90 }, { serverCpuPercent: undefined }, { serverCpuPercent: 110 }])).toBe(100);
    expect(serverCpuOf([{ serverCpuPercent: undefined }, { serverCpuPercent: undefined }])).toBeNull();
  });
});
