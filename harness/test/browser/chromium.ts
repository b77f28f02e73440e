/**
 * One headless Chromium per test worker for the browser test files. The unit project runs its
 * files in long-lived workers (isolate: false in vitest.config.ts) that keep this module between
 * files, so the first file to ask launches the browser and the next ones in that worker open their
 * pages in it: a launch costs more CPU than most of the pages a file draws. Each file opens pages
 * of its own and closes them; nothing of one file's pages (viewport, listeners, media features)
 * reaches another's.
 *
 * The worker never learns which of its files is the last, so the browser outlives the files:
 * puppeteer kills its process group when the worker is stopped (SIGTERM, its handleSIGTERM), and
 * the suite's global teardown (global-setup.ts) kills every group recorded here and removes their
 * profiles, so no Chromium is left behind even if a worker ends some other way.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { inject } from 'vitest';

/** CHROMIUM_PATH only to point at another build (or at nothing, to try the skip and CI paths). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const installed = existsSync(CHROMIUM);
/** CI installs Chromium, so there a missing browser is a failure, never a quiet skip. */
export const required = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

let shared: Promise<Browser> | undefined;

async function launch(): Promise<Browser> {
  if (!installed) throw new Error(`${CHROMIUM} not found: the browser tests need Chromium (CI is set, so this is not skipped)`);
  const groups = inject('browserGroups') ?? join(tmpdir(), 'browser-groups');
  mkdirSync(groups, { recursive: true });
  const profile = mkdtempSync(join(groups, 'chromium-'));
  const browser = await puppeteer.launch({ browser: 'chrome', executablePath: CHROMIUM, headless: true, args: ARGS, userDataDir: profile });
  const pid = browser.process()?.pid;
  if (pid !== undefined) writeFileSync(join(groups, `${pid}.pid`), `${profile}\n`);
  return browser;
}

/** This worker's Chromium, launched by the first file that asks. */
export function sharedChromium(): Promise<Browser> {
  shared ??= launch().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** A new page in this worker's Chromium; the file that opened it closes it. */
export async function newPage(): Promise<Page> {
  return (await sharedChromium()).newPage();
}
