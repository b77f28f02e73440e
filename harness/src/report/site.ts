/**
 * The one results site: every run under the roots given (default data/results), the newest of
 * each kind shown, written to <results>/site/index.html (self-contained: inline CSS and scripts,
 * opens from file://) and index.md (the same front page, for pull requests). The kinds are
 * handed in by the entry points (site-kinds.ts), so report/ stays below the features.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../model/run-files.ts';
import { collectRuns } from './site-inputs.ts';
import { newestOfKind, type SiteInput, type SiteKind } from './site-model.ts';
import { frontPageMarkdown, frontPictures, siteHtml } from './site-render.ts';

export interface BuiltSite {
  html: string;
  markdown: string;
  input: SiteInput;
}

/** Reads the runs under `roots` and writes the site into `siteDir`. */
export function writeSite(roots: readonly string[], kinds: readonly SiteKind[], siteDir: string, now: Date = new Date()): BuiltSite {
  const input = collectRuns(roots, kinds);
  const html = join(siteDir, 'index.html');
  const markdown = join(siteDir, 'index.md');
  writeFileAtomic(html, siteHtml(input, kinds, siteDir, now.toISOString()));
  // The previous build's pictures go: a question the newest run no longer asks leaves no file behind.
  rmSync(join(siteDir, 'answers'), { recursive: true, force: true });
  for (const picture of frontPictures(input, kinds)) writeFileAtomic(join(siteDir, picture.file), picture.svg);
  writeFileAtomic(markdown, frontPageMarkdown(input, kinds, siteDir));
  return { html, markdown, input };
}

export interface SiteMarkdown {
  /** The front page, links relative to `linkBase` (the folder the Markdown will live in); its pictures' from the site's folder. */
  frontPage: string;
  /** The newest run of each kind: its whole report as Markdown. */
  sections: Array<{ kind: SiteKind['kind']; title: string; dir: string; markdown: string }>;
  input: SiteInput;
}

/** The site's Markdown without writing anything: for the docs generator. */
export function siteMarkdownOf(roots: readonly string[], kinds: readonly SiteKind[], linkBase: string): SiteMarkdown {
  const input = collectRuns(roots, kinds);
  const sections = newestOfKind(input.runs, kinds).map((run) => ({
    kind: run.kind,
    title: kinds.find((k) => k.kind === run.kind)?.title ?? run.kind,
    dir: run.dir,
    markdown: run.section.markdown(),
  }));
  return { frontPage: frontPageMarkdown(input, kinds, linkBase), sections, input };
}
