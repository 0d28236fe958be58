// The tag sets the content pass reads: what is scored, what is a list, what makes a block more than a paragraph,
// what is dropped before anything else and what the chosen article never keeps.

export const TAGS_TO_SCORE = new Set(["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]);
export const LIST_TAGS = new Set(["ul", "ol"]);
export const DIV_TO_P_BLOCKS = new Set(["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]);
/**
 * Dropped before anything else: never content. Everything else stays in the tree while scoring, because it
 * shapes it (a form wrapping a whole page, a button beside the article); what is unsafe or useless in a
 * forum post is removed after the article is chosen and never survives the block tree (docs/extraction.md).
 */
export const ALWAYS_DROP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "select",
  "datalist",
  "textarea",
]);
/** Removed from the chosen article (interactive or embedded things a post cannot carry). */
export const NOT_CONTENT = new Set([
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "link",
  "meta",
  "base",
  "input",
  "button",
  "select",
  "textarea",
  "option",
  "dialog",
  "map",
  "area",
  "audio",
  "video",
  "track",
  "source",
  "param",
  "portal",
  "canvas",
]);
