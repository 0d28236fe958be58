// The inline half of the forum's markdown (Reddit's snudown; test/fixtures/SOURCES.md names the lines each
// rule follows): escapes, entities, code spans, links and bare URLs, emphasis, strikethrough, superscript and
// inline spoilers. Text stays text: JSX escapes it, and only the elements below are ever produced.
import type { Child } from "hono/jsx";

/** Only absolute http(s) links are followed; anything else (javascript:, data:) stays text. */
export function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

const ESCAPABLE = "\\`*_{}[]()#+-.!:|&<>/^~";
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** What one inline rule made of the text at `i`: the elements and how many characters it took. */
type Match = { nodes: Child[]; length: number } | null;
type Rule = (s: string, i: number) => Match;

const backslash: Rule = (s, i) =>
  s[i] === "\\" && i + 1 < s.length && ESCAPABLE.includes(s[i + 1]!) ? { nodes: [s[i + 1]!], length: 2 } : null;

function entity(s: string, i: number): Match {
  const m = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]+));/.exec(s.slice(i, i + 12));
  if (!m) return null;
  const code = m[1] ? Number(m[1]) : m[2] ? Number.parseInt(m[2], 16) : undefined;
  const text =
    code !== undefined ? (code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined) : NAMED[m[3]!];
  return text === undefined ? null : { nodes: [text], length: m[0].length };
}

/** A code span: as many backticks close it as opened it; the spaces inside its ends are trimmed. */
function codeSpan(s: string, i: number): Match {
  if (s[i] !== "`") return null;
  const fence = /^`+/.exec(s.slice(i))![0];
  const end = s.indexOf(fence, i + fence.length);
  if (end < 0) return null;
  return {
    nodes: [<code>{s.slice(i + fence.length, end).replace(/^ +| +$/g, "")}</code>],
    length: end + fence.length - i,
  };
}

/** The `)` ending a link target: parentheses inside it pair up, a backslash escapes one. */
function closingParen(s: string, from: number): number {
  let depth = 0;
  for (let j = from; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === "(") depth++;
    else if (s[j] === ")" && depth-- === 0) return j;
  }
  return -1;
}

/** `[label](url)` (an optional "title" after the url is dropped); a link the console may not follow is text. */
function link(s: string, i: number): Match {
  if (s[i] !== "[") return null;
  let depth = 0;
  let close = -1;
  for (let j = i; j < s.length && close < 0; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === "[") depth++;
    else if (s[j] === "]" && --depth === 0) close = j;
  }
  if (close < 0 || s[close + 1] !== "(") return null;
  const end = closingParen(s, close + 2);
  if (end < 0) return null;
  const target = s
    .slice(close + 2, end)
    .trim()
    .replace(/\s+("[^"]*"|'[^']*')$/, "")
    .replace(/^<(.*)>$/, "$1");
  const label = renderInline(s.slice(i + 1, close));
  const href = safeHref(target);
  const node = href ? (
    <a href={href} rel="nofollow noopener noreferrer">
      {label}
    </a>
  ) : (
    <span>{label}</span>
  );
  return { nodes: [node], length: end + 1 - i };
}

/** A bare http(s) address is a link, as the forum's autolinker makes it (trailing punctuation left out). */
function bareUrl(s: string, i: number): Match {
  if (i > 0 && /[\w/]/.test(s[i - 1]!)) return null;
  const m = /^https?:\/\/[^\s<]+/.exec(s.slice(i));
  if (!m) return null;
  const url = m[0].replace(/[.,;:!?'")\]]+$/, "");
  const href = safeHref(url);
  return href
    ? {
        nodes: [
          <a href={href} rel="nofollow noopener noreferrer">
            {url}
          </a>,
        ],
        length: url.length,
      }
    : null;
}

/** `^word` up to a space, or `^(...)` up to the first `)` (a backslash also ends it: the forum's own loop). */
function superscript(s: string, i: number): Match {
  if (s[i] !== "^" || i + 1 >= s.length) return null;
  let end = i + 1;
  if (s[i + 1] === "(") {
    end = i + 2;
    while (end < s.length && s[end] !== ")" && s[end - 1] !== "\\") end++;
    if (end === s.length) return null;
    const inner = s.slice(i + 2, end);
    return { nodes: inner ? [<sup>{renderInline(inner)}</sup>] : [], length: end + 1 - i };
  }
  while (end < s.length && !/\s/.test(s[end]!)) end++;
  return end === i + 1 ? null : { nodes: [<sup>{renderInline(s.slice(i + 1, end))}</sup>], length: end - i };
}

/** `>!hidden!<`: the forum hides it until clicked; the preview marks it. */
function spoiler(s: string, i: number): Match {
  if (!s.startsWith(">!", i) || /\s/.test(s[i + 2] ?? " ")) return null;
  const end = s.indexOf("!<", i + 2);
  if (end < 0) return null;
  const inner = renderInline(s.slice(i + 2, end));
  return { nodes: [<span class="md-spoiler-text">{inner}</span>], length: end + 2 - i };
}

/** The closing `marker` of an emphasis opened before `from`: not after a space (and `_` not inside a word). */
function closing(s: string, marker: string, from: number): number {
  for (let j = from; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === "`") j = Math.max(j, s.indexOf("`", j + 1));
    else if (s.startsWith(marker, j) && !/\s/.test(s[j - 1]!) && s[j + marker.length] !== marker[0]) {
      if (marker === "_" && /[^\s\p{P}]/u.test(s[j + 1] ?? " ")) continue;
      return j;
    }
  }
  return -1;
}

function emphasis(s: string, i: number): Match {
  const marker = /^(\*\*\*|___|\*\*|__|~~|\*|_)/.exec(s.slice(i))?.[0];
  if (!marker || /\s/.test(s[i + marker.length] ?? " ")) return null;
  const end = closing(s, marker, i + marker.length);
  if (end < 0) return null;
  const inner = renderInline(s.slice(i + marker.length, end));
  const node =
    marker === "~~" ? (
      <del>{inner}</del>
    ) : marker.length === 3 ? (
      <strong>
        <em>{inner}</em>
      </strong>
    ) : marker.length === 2 ? (
      <strong>{inner}</strong>
    ) : (
      <em>{inner}</em>
    );
  return { nodes: [node], length: end + marker.length - i };
}

/** Two spaces before a newline make a line break; any other newline is a space when shown. */
const lineBreak: Rule = (s, i) =>
  s[i] === "\n" && / {2}$/.test(s.slice(0, i)) ? { nodes: [<br />], length: 1 } : null;

const RULES: Rule[] = [backslash, entity, codeSpan, link, bareUrl, superscript, spoiler, emphasis, lineBreak];

export function renderInline(source: string): Child[] {
  const out: Child[] = [];
  let text = "";
  for (let i = 0; i < source.length; ) {
    const match = RULES.reduce<Match>((found, rule) => found ?? rule(source, i), null);
    if (!match) {
      text += source[i++];
      continue;
    }
    if (match.nodes[0] && typeof match.nodes[0] !== "string") {
      if (text) out.push(text.replace(/ +$/, (spaces) => (source[i] === "\n" ? "" : spaces)));
      text = "";
    }
    for (const node of match.nodes) {
      if (typeof node === "string") text += node;
      else out.push(node);
    }
    i += match.length;
  }
  if (text) out.push(text);
  return out;
}
