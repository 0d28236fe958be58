// The user's full-text query rewritten for posts_fts, whose tokens carry their workspace's tag (migration
// 0065): every word of the query gets the same tag, everything else (operators, column filters, NEAR and its
// distance, +, *, ^, parentheses) stays as the user wrote it, and FTS5 parses the result. Pure (no imports):
// the read benchmark loads posts-query.ts, and this file with it, straight into Node.
//
// How FTS5 reads a query (fts5_expr.c, read for this, not copied): outside "strings", whitespace separates;
// ( ) { } : , + * - ^ are tokens of their own; a run of ASCII letters, digits, '_', 0x1A or any non-ASCII
// character is a bareword; AND, OR and NOT (upper case) are operators; a string is "..." with "" for a
// quote; NUL ends the query. A bareword or string is a phrase, except a column name (before ':' or inside
// { }), the word before '(' (NEAR) and NEAR's distance (after ','). A phrase is tokenized by the table's
// tokenizer (unicode61 remove_diacritics 2), so a bareword with several words in it is a phrase of them.

/** The tag migration 0065 puts before every token of a workspace's posts: printf('w%08x', workspace_id). */
export const ftsWorkspaceTag = (workspaceId: number) => `w${workspaceId.toString(16).padStart(8, "0")}`;

/** A query FTS5 would refuse before reading anything: an unterminated string or a character it cannot start a token with. */
export class FtsQuerySyntaxError extends Error {}

const SPACE = new Set([" ", "\t", "\n", "\r", "\f", "\v"]);
const PUNCTUATION = new Set(["(", ")", "{", "}", ":", ",", "+", "*", "-", "^"]);
const OPERATORS = new Set(["AND", "OR", "NOT"]);

function isBarewordChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code >= 0x80) return true;
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f ||
    code === 0x1a
  );
}

type Token =
  | { kind: "punctuation"; char: string; start: number; end: number }
  | { kind: "string"; text: string; quoted: boolean; start: number; end: number };

function lex(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i]!;
    if (SPACE.has(ch)) {
      i++;
    } else if (PUNCTUATION.has(ch)) {
      tokens.push({ kind: "punctuation", char: ch, start: i, end: i + 1 });
      i++;
    } else if (ch === '"') {
      let text = "";
      let j = i + 1;
      for (;;) {
        if (j >= query.length) throw new FtsQuerySyntaxError("unterminated string");
        if (query[j] === '"') {
          if (query[j + 1] !== '"') break;
          text += '"';
          j += 2;
        } else {
          text += query[j];
          j++;
        }
      }
      tokens.push({ kind: "string", text, quoted: true, start: i, end: j + 1 });
      i = j + 1;
    } else if (isBarewordChar(ch)) {
      let j = i + 1;
      while (j < query.length && isBarewordChar(query[j]!)) j++;
      tokens.push({ kind: "string", text: query.slice(i, j), quoted: false, start: i, end: j });
      i = j;
    } else {
      throw new FtsQuerySyntaxError(`syntax error near "${ch}"`);
    }
  }
  return tokens;
}

/**
 * The combining marks unicode61 keeps inside a word (and then removes, remove_diacritics 2): the accents of
 * the Latin letters' canonical decompositions (U+0300 to U+036F). Found from the decompositions themselves,
 * so a mark such as the strike-through overlay (U+0336) still separates words, as it does in unicode61.
 */
const LATIN_DIACRITICS = (() => {
  const marks = new Set<string>();
  for (const [from, to] of [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
  ] as const)
    for (let c = from; c <= to; c++)
      for (const ch of String.fromCodePoint(c).normalize("NFD")) {
        const code = ch.codePointAt(0)!;
        if (code >= 0x300 && code <= 0x36f) marks.add(ch);
      }
  return [...marks].join("");
})();

/**
 * The words unicode61 makes of a phrase's text: runs of letters, digits, private-use and unassigned code
 * points (unicode61's tables are Unicode 6.1's: a character added since is unassigned there, a word
 * character) and the Latin accents above. Case and accents are left to FTS5, which folds the tagged word
 * as it folded the indexed one.
 */
const WORD = new RegExp(`[\\p{L}\\p{N}\\p{Co}\\p{Cn}${LATIN_DIACRITICS}]+`, "gu");
const words = (text: string): string[] => text.match(WORD) ?? [];

/** Whether the string token at `index` is a phrase (its words are tagged) or FTS5 syntax kept as written. */
function isPhrase(tokens: Token[], index: number, braceDepth: number): boolean {
  const token = tokens[index]!;
  if (token.kind !== "string") return false;
  if (!token.quoted && OPERATORS.has(token.text)) return false;
  if (braceDepth > 0) return false; // a column name of {title selftext}
  const next = tokens[index + 1];
  if (next?.kind === "punctuation" && (next.char === ":" || next.char === "(")) return false; // column, NEAR
  const previous = tokens[index - 1];
  if (previous?.kind === "punctuation" && previous.char === ",") return false; // NEAR's distance
  return true;
}

/**
 * `query` (FTS5 syntax) for posts_fts with every word tagged as workspace `workspaceId`'s: `mail*` becomes
 * ` "w00000003mail" *`, `"e-mail" OR title:chimp` becomes ` "w00000003e w00000003mail"  OR title: "w00000003chimp" `.
 * Throws FtsQuerySyntaxError for what FTS5 refuses while reading tokens; anything else FTS5 refuses
 * (operators out of place, an unknown column, NEAR's distance not a number) it still refuses after the
 * rewrite, the same way. Known difference: a character Unicode assigned after 6.1 that is not a letter or
 * digit (an emoji skin-tone modifier) is inside a word for unicode61 and between words here, so a query
 * with one finds nothing for that word (never another workspace's post).
 */
export function workspaceFtsQuery(workspaceId: number, query: string): string {
  const nul = query.indexOf("\u0000");
  const text = nul === -1 ? query : query.slice(0, nul);
  const tokens = lex(text);
  const tag = ftsWorkspaceTag(workspaceId);
  let out = "";
  let copied = 0;
  let braceDepth = 0;
  tokens.forEach((token, index) => {
    if (token.kind === "punctuation") {
      if (token.char === "{") braceDepth++;
      else if (token.char === "}") braceDepth = Math.max(0, braceDepth - 1);
      return;
    }
    if (!isPhrase(tokens, index, braceDepth)) return;
    // Spaced, so two strings side by side (`abc"def"`) never read as one string with a "" in it.
    out += `${text.slice(copied, token.start)} "${words(token.text)
      .map((w) => tag + w)
      .join(" ")}" `;
    copied = token.end;
  });
  return out + text.slice(copied);
}
