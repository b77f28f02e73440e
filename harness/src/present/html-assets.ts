/**
 * The two browser builds the HTML report inlines, read from the harness's own node_modules so the
 * page carries exactly the installed versions and needs no network.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface ChartAssets {
  chartJs: string;
  errorBarsJs: string;
}

const require = createRequire(import.meta.url);

/** The UMD builds: they set `window.Chart` and `window.ChartErrorBars` (which registers itself). */
const CHART_JS = { name: 'chart.js', file: 'dist/chart.umd.min.js' };
const ERROR_BARS = { name: 'chartjs-chart-error-bars', file: 'build/index.umd.min.js' };

function isPackageRoot(dir: string, name: string): boolean {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return false;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name;
}

/**
 * The folder a package is installed in. Neither package lists `./package.json` (nor its UMD
 * build) in `exports`, so resolving those subpaths throws; when it does, the main entry (which
 * is exported) is resolved instead and its folders are walked up to the package's root.
 */
export function packageRoot(name: string): string {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    let dir = dirname(require.resolve(name));
    while (!isPackageRoot(dir, name)) {
      const parent = dirname(dir);
      if (parent === dir) throw new Error(`cannot find the folder of package ${name}`);
      dir = parent;
    }
    return dir;
  }
}

function readAsset(asset: { name: string; file: string }): string {
  return readFileSync(join(packageRoot(asset.name), asset.file), 'utf8');
}

export function loadChartAssets(): ChartAssets {
  return { chartJs: readAsset(CHART_JS), errorBarsJs: readAsset(ERROR_BARS) };
}
