// The text of an HTML fragment as the extraction benches score it (the readability pages' expected.html and
// the peer's output; ours is the engine's own `text`), for bench/extract.mjs and bench/extract-node.mjs.
import { parseHTML } from "linkedom";

// "Body text" of an HTML fragment, two ways. `rendered`: the text as a reader sees it, with a line break at
// every <br> and block boundary and a tab between table cells (like innerText), so the words on either side
// of a <br> or of two cells stay apart. `raw`: DOM textContent, which glues them ("one<br>two" → "onetwo";
// in CJK text, where words are not separated by spaces, whole cells run together). The expected text and
// the peer's output go through the same function; ours is the engine's own `text`.
const BLOCK = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIELDSET",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "FORM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "MAIN",
  "NAV",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "TR",
  "UL",
  "CAPTION",
  "THEAD",
  "TBODY",
  "TFOOT",
]);

function renderedText(node) {
  const parts = [];
  const walk = (n) => {
    for (const child of n.childNodes) {
      if (child.nodeType === 3) parts.push(child.textContent);
      else if (child.nodeType === 1) {
        const tag = child.tagName.toUpperCase();
        if (tag === "BR") {
          parts.push("\n");
          continue;
        }
        if (tag === "SCRIPT" || tag === "STYLE") continue;
        const block = BLOCK.has(tag);
        if (block) parts.push("\n");
        walk(child);
        if (block) parts.push("\n");
        else if (tag === "TD" || tag === "TH") parts.push("\t");
      }
    }
  };
  walk(node);
  return parts.join("");
}

export function fragmentTexts(html) {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return { rendered: renderedText(document.body), raw: document.body.textContent ?? "" };
}
