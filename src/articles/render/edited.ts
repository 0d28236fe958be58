// A draft a person edited: the title and markdown they wrote, checked against the forum's limits, and the
// rich text rendered again from that markdown (when the config includes media), keeping the images the
// edited text still links to.
import type { Article, ArticleImage, Block, Inline } from "../types";
import { charLength, MAX_BODY, MAX_TITLE } from "./limits";
import { fromRedditMarkdown } from "./markdown-blocks";
import { type RichTextDocument, toRedditRichText } from "./richtext";

export interface EditInput {
  title: string;
  markdown: string;
  includeMedia: boolean;
  /** The draft's images before the edit. */
  images: ArticleImage[];
  sourceUrl: string;
}

export interface EditedDraft {
  title: string;
  markdown: string;
  richtext: RichTextDocument | null;
  images: ArticleImage[];
}

/** What is wrong with an edit, by field (`title`, `body_markdown`); empty when it fits the forum. */
export function checkEdit(title: string, markdown: string): { field: "title" | "body_markdown"; message: string }[] {
  const problems: { field: "title" | "body_markdown"; message: string }[] = [];
  const titleLength = charLength(title.replace(/\s+/g, " ").trim());
  if (titleLength === 0) problems.push({ field: "title", message: "the title is empty; give the post a title" });
  else if (titleLength > MAX_TITLE)
    problems.push({
      field: "title",
      message: `the title has ${titleLength} characters; the forum allows at most ${MAX_TITLE}`,
    });
  const bodyLength = charLength(markdown);
  if (bodyLength > MAX_BODY)
    problems.push({
      field: "body_markdown",
      message: `the body has ${bodyLength} characters; the forum allows at most ${MAX_BODY}`,
    });
  return problems;
}

const linkOnly = (children: Inline[]) => children.length === 1 && children[0]!.type === "link";

/** A paragraph that is only a link to one of the draft's images (as markdown.ts writes images) is that image. */
function restoreImages(blocks: Block[], images: Map<string, ArticleImage>): Block[] {
  return blocks.map((block): Block => {
    if (block.type === "list") return { ...block, items: block.items.map((item) => restoreImages(item, images)) };
    if (block.type === "quote") return { ...block, children: restoreImages(block.children, images) };
    if (block.type !== "paragraph") return block;
    const [link, brk, ...caption] = block.children;
    if (link?.type !== "link") return block;
    const image = images.get(link.href);
    if (!image) return block;
    if (linkOnly(block.children)) return { type: "image", url: image.url, alt: image.alt, caption: image.caption };
    if (brk?.type === "break" && caption.every((n) => n.type === "text" && n.italic))
      return {
        type: "image",
        url: image.url,
        alt: image.alt,
        caption: caption.map((n) => (n.type === "text" ? n.text : "")).join(""),
      };
    return block;
  });
}

/** The edited draft as it will be stored: collapsed title, the markdown as written, rich text re-rendered. */
export function renderEditedDraft(input: EditInput): EditedDraft {
  const title = input.title.replace(/\s+/g, " ").trim();
  if (!input.includeMedia) return { title, markdown: input.markdown, richtext: null, images: [] };
  const kept = input.images.filter((image) => input.markdown.includes(image.url) || linksTo(input.markdown, image));
  const blocks = restoreImages(fromRedditMarkdown(input.markdown), new Map(kept.map((i) => [i.url, i])));
  const article: Article = {
    url: input.sourceUrl,
    canonicalUrl: input.sourceUrl,
    title,
    byline: null,
    publishedAt: null,
    leadImage: null,
    blocks,
    images: kept,
    text: input.markdown,
    warnings: [],
  };
  const richtext = toRedditRichText(article, {}, { fitted: { blocks, truncated: false, url: input.sourceUrl } });
  return { title, markdown: input.markdown, richtext: richtext.document, images: kept };
}

/** markdown.ts percent-encodes parentheses and spaces in link targets; the edited text may carry either form. */
function linksTo(markdown: string, image: ArticleImage): boolean {
  const encoded = image.url.replace(/[()\s<>]/g, (c) =>
    encodeURIComponent(c).replace(/\(/g, "%28").replace(/\)/g, "%29"),
  );
  return markdown.includes(encoded);
}
