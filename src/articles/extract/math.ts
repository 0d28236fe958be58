// MathML as plain text. A forum post cannot carry MathML, but dropping an equation leaves sentences such as
// "When , there are two solutions to" behind. An equation becomes the linear form people type: the author's
// `alttext` when there is one, else a TeX annotation, else the presentation markup read out with `^`, `_`,
// `/` and `√` for scripts, fractions and roots, and one line per table row (systems of equations).
import { collapseWhitespace, type ElementNode, findAll, isElement, textContent } from "./html-tree";

const TOKENS = new Set(["mi", "mn", "mo", "mtext", "ms", "mglyph"]);
const TEX = /^(application\/x-tex|text\/x-tex|tex|latex|application\/x-latex)$/i;

/** The text of a `<math>` element; rows of a table are separated by "\n". */
export function mathText(math: ElementNode): string {
  const alt = collapseWhitespace(math.attrs.alttext ?? "");
  if (alt) return alt;
  for (const annotation of findAll(math, "annotation")) {
    if (TEX.test(annotation.attrs.encoding ?? "")) {
      const tex = collapseWhitespace(textContent(annotation));
      if (tex) return tex;
    }
  }
  return linear(math)
    .replace(/[ \t]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .trim();
}

/** A script or operand: bare when it is one token, in parentheses otherwise. */
function group(el: ElementNode | undefined): string {
  const text = el ? linear(el).trim() : "";
  return /^[\p{L}\p{N}.]+$/u.test(text) || parenthesized(text) ? text : `(${text})`;
}

/** "(a + b)" but not "(a) (b)". */
function parenthesized(text: string): boolean {
  if (!text.startsWith("(")) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i === text.length - 1;
  }
  return false;
}

function base(el: ElementNode | undefined): string {
  return el ? linear(el) : "";
}

function linear(el: ElementNode): string {
  if (TOKENS.has(el.tag)) return collapseWhitespace(textContent(el));
  const kids = el.children.filter(isElement);
  switch (el.tag) {
    case "annotation":
    case "annotation-xml":
    case "none":
    case "mprescripts":
      return "";
    case "semantics":
      return kids[0] ? linear(kids[0]) : "";
    case "mfrac":
      return `${group(kids[0])}/${group(kids[1])}`;
    case "msqrt":
      return `√${group({ ...el, tag: "mrow" })}`;
    case "mroot":
      return `root ${group(kids[1])} of ${group(kids[0])}`;
    case "msup":
      return `${base(kids[0])}^${group(kids[1])}`;
    case "msub":
      return `${base(kids[0])}_${group(kids[1])}`;
    case "msubsup":
      return `${base(kids[0])}_${group(kids[1])}^${group(kids[2])}`;
    case "mtable":
      return kids.map(linear).join("\n");
    case "mtr":
    case "mlabeledtr":
      return kids.map(linear).join(" ");
  }
  return kids.map(linear).join(" ");
}
