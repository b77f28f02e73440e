/**
 * The system browsers driven by puppeteer-core (CDP for Chromium, WebDriver BiDi for Firefox),
 * never a downloaded build. Each launch gets a fresh profile and its own process group, so a
 * stop (or the harness's SIGINT/SIGTERM) can kill the whole tree at once.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { trackGroup, untrackGroup } from '../system/children.ts';

export const BROWSERS = ['chromium', 'firefox'] as const;
export type BrowserName = (typeof BROWSERS)[number];

/** BROWSER_CHROMIUM / BROWSER_FIREFOX only to point at another binary (or at nothing, to see the skip). */
export function executable(name: BrowserName): string {
  const fromEnv = process.env[name === 'chromium' ? 'BROWSER_CHROMIUM' : 'BROWSER_FIREFOX'];
  return fromEnv ?? (name === 'chromium' ? '/usr/bin/chromium' : '/usr/bin/firefox-esr');
}

export function missingReason(name: BrowserName): string | undefined {
  const path = executable(name);
  return existsSync(path)
    ? undefined
    : `${path} not found (install the Debian package ${name === 'chromium' ? 'chromium' : 'firefox-esr'})`;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export function driverVersion(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('puppeteer-core/package.json');
  return `puppeteer-core ${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}`;
}

export interface Launched {
  browser: Browser;
  pid: number;
  version: string;
  close(): Promise<void>;
}

const live = new Set<number>();

/** Kills every browser process group still open; for signal handlers and test clean-up. */
export function killAll(): void {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

export async function launch(name: BrowserName): Promise<Launched> {
  const profile = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const browser = await puppeteer.launch({
    browser: name === 'chromium' ? 'chrome' : 'firefox',
    executablePath: executable(name),
    headless: true,
    userDataDir: profile,
    args: name === 'chromium' ? CHROMIUM_ARGS : [],
    // Our own handlers kill the group; puppeteer's would race them.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    protocolTimeout: 600_000,
    env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' },
  });
  const pid = browser.process()?.pid;
  if (pid === undefined) {
    await browser.close();
    throw new Error(`${name}: no browser process id`);
  }
  live.add(pid);
  trackGroup(pid);
  const version = await browser.version();
  return {
    browser,
    pid,
    version,
    async close() {
      await Promise.race([browser.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // group already gone
      }
      live.delete(pid);
      untrackGroup(pid);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
