// The source line a config's `source_link` adds to a draft (docs/blog-sync.md, "The config"): the draft's last
// line says where the article was first published, with its URL, in the markdown and in the rich text. The
// submission leaves it out again where the destination's post requirements forbid the link
// (src/publishing/submission.ts), so both forms must be recognisable here.
import { charLength, MAX_BODY } from "./limits";

const LEAD = "Originally published at ";

/** The link's label: the article's host, which has no character markdown would read as formatting. */
const labelOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

/** Parentheses and spaces would end a markdown link's target early. */
const linkTarget = (url: string) => url.replace(/\(/g, "%28").replace(/\)/g, "%29").replace(/ /g, "%20");

export const sourceLineMarkdown = (url: string) => `${LEAD}[${labelOf(url)}](${linkTarget(url)})`;

const sourceLineBlock = (url: string) => ({
  e: "par",
  c: [
    { e: "text", t: LEAD },
    { e: "link", t: labelOf(url), u: url },
  ],
});

export interface DraftBody {
  markdown: string;
  /** A rich-text document (`{document: [...]}`), or null when the config includes no media. */
  richtext: unknown;
}

type Blocks = { document: unknown[] };
const blocksOf = (richtext: unknown) => (richtext as Blocks | null)?.document;

/**
 * The body with the source line of `url` as its last line, in both forms; unchanged (with a warning) when the
 * line would take the markdown past the forum's limit.
 */
export function withSourceLine(body: DraftBody, url: string): DraftBody & { warning?: string } {
  const line = sourceLineMarkdown(url);
  const markdown = body.markdown ? `${body.markdown}\n\n${line}` : line;
  if (charLength(markdown) > MAX_BODY)
    return { ...body, warning: "the source line is left out: the body is at the forum's 40,000 character limit" };
  const blocks = blocksOf(body.richtext);
  return {
    markdown,
    richtext: blocks ? { ...(body.richtext as Blocks), document: [...blocks, sourceLineBlock(url)] } : body.richtext,
  };
}

/** The body without the source line of `url` (as withSourceLine wrote it), or the body as it is. */
export function withoutSourceLine(body: DraftBody, url: string): DraftBody {
  const line = sourceLineMarkdown(url);
  const markdown =
    body.markdown === line
      ? ""
      : body.markdown.endsWith(`\n\n${line}`)
        ? body.markdown.slice(0, -line.length - 2)
        : body.markdown;
  const blocks = blocksOf(body.richtext);
  const last = blocks?.[blocks.length - 1];
  const richtext =
    blocks && JSON.stringify(last) === JSON.stringify(sourceLineBlock(url))
      ? { ...(body.richtext as Blocks), document: blocks.slice(0, -1) }
      : body.richtext;
  return { markdown, richtext };
}
