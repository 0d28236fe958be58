/**
 * Every workspace has its own vocabulary inside the one full-text table (migration 0065,
 * docs/scaling.md): each indexed word is stored behind its workspace's tag (`w` and the workspace id in
 * eight hex digits, so `w0000002a` + `pricing`). A term's document list and its document frequency (what
 * bm25 counts over the whole table) are then the workspace's own, and a search costs the same however
 * many posts other workspaces hold. The triggers tag what is indexed, with FTS5's own tokenizer; this module
 * tags what is searched: it rewrites a user's FTS5 query so that every word of every phrase carries the
 * tag, and leaves the query's syntax (operators, parentheses, column filters, NEAR groups and distances,
 * `*`, `+`, `^`, `-`) exactly as written, so FTS5 parses the same query and refuses the same mistakes.
 */

/** The tag in front of every word a workspace's posts put in the index (the triggers of migration 0065 write the same). */
export const ftsTag = (workspaceId: number) => `w${workspaceId.toString(16).padStart(8, "0")}`;

/**
 * A word as unicode61 (remove_diacritics 2) splits text: letters, digits and private-use characters, plus
 * the combining marks it drops as Latin diacritics (a base letter with U+0301 is one token, the mark
 * removed). The marks were measured on workerd's FTS5 one by one over U+0300–U+036F
 * (test/api/posts-search-per-workspace.test.ts checks the list against it); other marks (Thai vowel
 * signs, Devanagari matras) separate words there, as here.
 */
export const FTS_DIACRITIC_MARKS: readonly number[] = [
  0x300, 0x301, 0x302, 0x303, 0x304, 0x306, 0x307, 0x308, 0x309, 0x30a, 0x30b, 0x30c, 0x30f, 0x311, 0x31b, 0x323, 0x324,
  0x325, 0x326, 0x327, 0x328, 0x32d, 0x32e, 0x330, 0x331,
];
const WORD = new RegExp(
  `[\\p{L}\\p{N}\\p{Co}${FTS_DIACRITIC_MARKS.map((c) => `\\u{${c.toString(16)}}`).join("")}]+`,
  "gu",
);

/** FTS5's bare-word characters: ASCII letters, digits and `_`, U+001A, and anything outside ASCII. */
const isBareChar = (c: string) => /[A-Za-z0-9_]/.test(c) || c === "\u001a" || c.charCodeAt(0) > 0x7f;

interface Token {
  kind: "string" | "bare" | "punct" | "other";
  start: number;
  end: number;
  /** A string's or bare word's text (a string's doubled quotes undone). */
  text: string;
}

/** Splits the query as FTS5's own lexer does; `null` when a quoted string is not closed. */
function lex(query: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '"') {
      let text = "";
      i++;
      for (;;) {
        if (i >= query.length) return null;
        if (query[i] === '"') {
          if (query[i + 1] !== '"') break;
          text += '"';
          i += 2;
        } else text += query[i++];
      }
      i++;
      tokens.push({ kind: "string", start, end: i, text });
    } else if (isBareChar(c)) {
      while (i < query.length && isBareChar(query[i] as string)) i++;
      tokens.push({ kind: "bare", start, end: i, text: query.slice(start, i) });
    } else {
      i++;
      tokens.push({ kind: "-()}{:,+*^".includes(c) ? "punct" : "other", start, end: i, text: c });
    }
  }
  return tokens;
}

const OPERATORS = new Set(["AND", "OR", "NOT"]);

/** Whether a string or bare word is a phrase to search for, not syntax around one. */
function isPhrase(tokens: Token[], i: number, insideBraces: boolean): boolean {
  const t = tokens[i] as Token;
  if (insideBraces) return false; // {title selftext}: column names
  const next = tokens[i + 1];
  if (next?.kind === "punct" && next.text === ":") return false; // a column filter
  if (t.kind === "bare" && t.text === "NEAR" && next?.kind === "punct" && next.text === "(") return false;
  if (t.kind === "bare" && OPERATORS.has(t.text)) return false;
  const prev = tokens[i - 1];
  return !(prev?.kind === "punct" && prev.text === ","); // NEAR(... , N): the distance
}

const taggedPhrase = (text: string, tag: string) => `"${Array.from(text.matchAll(WORD), (m) => tag + m[0]).join(" ")}"`;

/**
 * The query with every phrase's words tagged for the workspace. A query whose quotes are not closed is
 * returned as it is, for FTS5 to refuse as before.
 */
export function scopeSearch(query: string, workspaceId: number): string {
  return scopeTokens(query, lex(query), workspaceId);
}

/** `scopeSearch` over the query's tokens, already lexed (`null`: an unclosed quote, returned as written). */
function scopeTokens(query: string, tokens: Token[] | null, workspaceId: number): string {
  if (tokens === null) return query;
  const tag = ftsTag(workspaceId);
  let out = "";
  let copied = 0;
  let insideBraces = false;
  tokens.forEach((t, i) => {
    if (t.kind === "punct" && t.text === "{") insideBraces = true;
    if (t.kind === "punct" && t.text === "}") insideBraces = false;
    if ((t.kind === "string" || t.kind === "bare") && isPhrase(tokens, i, insideBraces)) {
      // Spaced: two phrases side by side (`pricing"customer"`) must not become one string with a "" in it.
      out += `${query.slice(copied, t.start)} ${taggedPhrase(t.text, tag)} `;
      copied = t.end;
    }
  });
  return out + query.slice(copied);
}

/**
 * The facets a post carries in the index's `facets` column (migration 0066): tokens that start with `y`,
 * so no tagged search word (`w…`) can ever be one, and bm25 weighs that column 0. A search's filters on
 * them are answered inside FTS5.
 */
const facetTag = (workspaceId: number) => `y${workspaceId.toString(16).padStart(8, "0")}`;

/**
 * The subreddit's token: its name lower-cased as SQLite's lower() does (ASCII letters only, as the
 * listing's COLLATE NOCASE compares) and written in hex, so a name with `_` stays one token.
 */
export function subredditFacet(workspaceId: number, subreddit: string): string {
  const lowered = subreddit.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const hex = Array.from(new TextEncoder().encode(lowered), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${facetTag(workspaceId)}r${hex}`;
}

/** The token an archived post carries. */
export const archivedFacet = (workspaceId: number) => `${facetTag(workspaceId)}a`;

/** The token a post that is not archived carries instead, so every post has two facets (the same length). */
export const liveFacet = (workspaceId: number) => `${facetTag(workspaceId)}l`;

/** Whether every `(` of the query (outside quoted strings) is closed, and no `)` comes before its `(`. */
function parenthesesBalanced(tokens: Token[]): boolean {
  let depth = 0;
  for (const t of tokens) {
    if (t.kind !== "punct") continue;
    if (t.text === "(") depth++;
    if (t.text === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * The MATCH expression of a search: the user's query tagged for the workspace (`scopeSearch`), and, beside
 * it, the filters the index answers (migration 0066): the subreddit's token, and no archived post's token
 * unless archived posts are asked for. The query is put in parentheses, so its own operators cannot reach
 * the facets; a query FTS5 would refuse as written (unbalanced parentheses, an unclosed quote) is passed
 * on as written, for FTS5 to refuse the same way (a parenthesis that closes too early could otherwise make
 * a wrong query valid inside the added ones).
 */
export function searchMatch(
  fullQuery: string,
  workspaceId: number,
  facets: { subreddit?: string; includeArchived: boolean },
): string {
  // FTS5 reads a query up to its first NUL and ignores the rest; so does this, before adding anything.
  const query = fullQuery.split("\u0000", 1)[0] as string;
  const tokens = lex(query);
  const scoped = scopeTokens(query, tokens, workspaceId);
  if (tokens === null || !parenthesesBalanced(tokens)) return scoped;
  let match = `(${scoped})`;
  if (facets.subreddit !== undefined) match = `${match} AND ${subredditFacet(workspaceId, facets.subreddit)}`;
  if (!facets.includeArchived) match = `(${match}) NOT ${archivedFacet(workspaceId)}`;
  return match;
}
