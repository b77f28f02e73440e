// A handler from a project of your own, measured as it is: it imports its npm dependency from the
// project's node_modules (`npm install` in this folder), is written in TypeScript, and exports the
// scenario contract beside its real work.
import { marked } from 'marked';

export const name = 'markdown';
export const description = 'render a Markdown document to HTML with marked, from the project’s own node_modules';

/** How many sections the document has: the input a sweep varies (--sweep markdown:sections=...). */
export const BOUNDS = { sections: { min: 1, max: 2000, default: 100 } } as const;

interface RenderInput {
  sections: number;
}

interface RenderAnswer {
  sections: number;
  htmlBytes: number;
  headings: number;
}

export function input(query: URLSearchParams): RenderInput {
  const raw = query.get('sections') ?? String(BOUNDS.sections.default);
  const sections = Number(raw);
  const { min, max } = BOUNDS.sections;
  if (!/^\d+$/.test(raw) || sections < min || sections > max)
    throw new RangeError(`sections must be an integer from ${min} to ${max}, got "${raw}"`);
  return { sections };
}

function document(sections: number): string {
  const parts: string[] = [];
  for (let i = 1; i <= sections; i++)
    parts.push(
      `## Section ${i}\n\nSome *emphasis*, some **strong** text and \`code\`, a [link](https://example.com/${i}).\n\n- one\n- two\n- three\n\n| a | b |\n|---|---|\n| ${i} | ${i * 2} |\n`,
    );
  return parts.join('\n');
}

export function sync({ sections }: RenderInput): RenderAnswer {
  const html = marked.parse(document(sections), { async: false });
  return { sections, htmlBytes: html.length, headings: html.split('<h2').length - 1 };
}
