// Our own matching of forum posts against a workspace's tracked terms (docs/monitoring.md, "Matching"). The forum's
// search is fuzzy (it finds "emailing" for "email"); this decides what a post really mentions. Pure: no I/O.

/** One tracked term: a keyword, or a competitor's name or one of its keywords. */
export interface TrackedTerm {
  kind: "keyword" | "competitor";
  /** The keyword's id or the competitor's id. */
  id: number;
  text: string;
  ambiguous: boolean;
  /**
   * Only matches in these subreddits count for the term (docs/monitoring.md, "Targeting"); empty or left out:
   * everywhere. Compared case-insensitively, without `r/`.
   */
  subreddits?: readonly string[];
}

export interface MatchResult {
  keywordIds: number[];
  competitorIds: number[];
  /** The texts of the terms that counted (for score reasons). */
  terms: string[];
}

/** Letters, digits, underscore, and combining marks left after NFC (they belong to the letter before them). */
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
/** Scripts written without spaces between words: a term in them matches as a substring (no boundary test). */
const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/**
 * NFC, case-folded, with typographic apostrophes and hyphens written the plain way, so `don’t` is `don't`
 * and `e‑mail` (non-breaking hyphen) is `e-mail`. Accents stay: `Uberweisung` is not `Überweisung`.
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc\uff07]/g, "'")
    .replace(/[\u2010\u2011\u2012\u2013\ufe63\uff0d]/g, "-");
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The pattern of one term: its words with any run of whitespace between them; a word boundary (the next
 * character is not a letter, digit, mark or underscore) wherever the term's own edge is such a character
 * and not in a spaceless script. `c++` therefore needs a boundary before the `c` only, `.net` after the `t`
 * only, and `東京` none at all.
 */
export function termPattern(term: string): RegExp | null {
  const words = normalizeText(term).trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const body = words.map(escapeRegExp).join("\\s+");
  const first = [...words[0]!][0]!;
  const lastWord = [...words[words.length - 1]!];
  const last = lastWord[lastWord.length - 1]!;
  const before = WORD_CHAR.test(first) && !SPACELESS.test(first) ? "(?<![\\p{L}\\p{N}\\p{M}_])" : "";
  const after = WORD_CHAR.test(last) && !SPACELESS.test(last) ? "(?![\\p{L}\\p{N}\\p{M}_])" : "";
  return new RegExp(`${before}${body}${after}`, "u");
}

export interface CompiledTerm extends TrackedTerm {
  pattern: RegExp;
}

/** Compiles the terms once per pass; a term with no text (only spaces) is dropped. */
export function compileTerms(terms: TrackedTerm[]): CompiledTerm[] {
  const out: CompiledTerm[] = [];
  for (const term of terms) {
    const pattern = termPattern(term.text);
    if (pattern) out.push({ ...term, pattern });
  }
  return out;
}

/**
 * Which tracked terms a post mentions, in its title or body (never its link URL). An ambiguous term counts
 * only when a non-ambiguous term also occurs in the post; two ambiguous terms give each other no context.
 */
export function matchPost(post: { title: string; selftext: string }, terms: CompiledTerm[]): MatchResult {
  return countedMatch(termHits({ title: post.title, body: post.selftext }, terms));
}

/** The terms whose pattern occurs in the title or body (normalized here). */
export function termHits<T extends { pattern: RegExp }>(
  item: { title: string; body: string },
  terms: readonly T[],
): T[] {
  const title = normalizeText(item.title);
  const body = normalizeText(item.body);
  return terms.filter((t) => t.pattern.test(title) || t.pattern.test(body));
}

/**
 * What the hits count for: an ambiguous hit only when a non-ambiguous one is among them (two ambiguous terms
 * give each other no context). The ids come sorted, the texts in the hits' order.
 */
export function countedMatch(hits: readonly CompiledTerm[]): MatchResult {
  const context = hits.some((t) => !t.ambiguous);
  const counted = context ? hits : [];
  const keywordIds = new Set<number>();
  const competitorIds = new Set<number>();
  const texts = new Set<string>();
  for (const t of counted) {
    (t.kind === "keyword" ? keywordIds : competitorIds).add(t.id);
    texts.add(t.text);
  }
  return {
    keywordIds: [...keywordIds].sort((a, b) => a - b),
    competitorIds: [...competitorIds].sort((a, b) => a - b),
    terms: [...texts],
  };
}

export const matchedAnything = (m: MatchResult) => m.keywordIds.length > 0 || m.competitorIds.length > 0;
