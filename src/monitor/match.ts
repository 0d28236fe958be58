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
export const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

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

/**
 * The terms with their patterns; a term with no text (only spaces) is dropped. A pattern is compiled the first
 * time it is read: a Unicode-property pattern costs far more to build than to test, and the ingester holds every
 * workspace's terms while a post reads only those whose anchor it contains.
 */
export function compileTerms(terms: TrackedTerm[]): CompiledTerm[] {
  const out: CompiledTerm[] = [];
  for (const term of terms) {
    if (normalizeText(term.text).trim() === "") continue;
    let pattern: RegExp | undefined;
    const compiled = { ...term } as CompiledTerm;
    Object.defineProperty(compiled, "pattern", {
      enumerable: true,
      get: () => {
        pattern ??= termPattern(term.text) ?? /(?!)/;
        return pattern;
      },
    });
    out.push(compiled);
  }
  return out;
}

/** The compiled matcher (TermIndex below) of a term list, built once per list. */
const indexes = new WeakMap<readonly object[], TermIndex<unknown>>();

function indexOf<T extends { text: string }>(terms: readonly T[]): TermIndex<T> {
  const known = indexes.get(terms);
  if (known) return known as TermIndex<T>;
  const index = new TermIndex(terms.map((t) => ({ text: t.text, value: t })));
  indexes.set(terms, index);
  return index;
}

/**
 * Which tracked terms a post mentions, in its title or body (never its link URL), found by the compiled
 * matcher the ingester uses for every workspace at once (TermIndex), so both are one and the same.
 */
export function matchPost(post: { title: string; selftext: string }, terms: CompiledTerm[]): MatchResult {
  return countedMatch(termHits({ title: post.title, body: post.selftext }, terms));
}

/** The terms that occur in the title or body, in the list's order (the compiled matcher of the list finds them). */
export function termHits<T extends { text: string; pattern: RegExp }>(
  item: { title: string; body: string },
  terms: readonly T[],
): T[] {
  return indexOf(terms).find({ title: item.title, selftext: item.body });
}

/**
 * What the hits count for: an ambiguous hit only when a non-ambiguous one is among them (two ambiguous terms
 * give each other no context). The ids come sorted, the texts in the hits' order.
 */
export function countedMatch(hits: readonly TrackedTerm[]): MatchResult {
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

// --- the compiled matcher -----------------------------------------------------------------------------------
// Every tracked term of every workspace in one index (docs/monitoring.md, "The compiled matcher"), so the work
// per post depends on the post's length and on the terms it really mentions, not on how many workspaces or
// terms there are. A term's own pattern (termPattern) decides; the index only picks, cheaply and never too
// few, the terms worth asking.

/** Letters, digits, marks and underscore in runs: the words a text is cut into (match.ts's word characters). */
const WORD_RUN = /[\p{L}\p{N}\p{M}_]+/gu;

/** A term's text as its pattern sees it: normalized, its words joined by one space. */
export function termKey(text: string): string {
  return normalizeText(text).trim().split(/\s+/).filter(Boolean).join(" ");
}

/**
 * The word of the term that must stand as a whole word in any text the term matches: a run of word
 * characters not at an edge written in a spaceless script (there the pattern tests no boundary, so the
 * text's word may be longer). The longest such run, as the rarest guess. Null when the term has none
 * (`東京`, `iphone手机`, `++`): such a term is found by a substring of it instead.
 */
export function anchorWord(key: string): string | null {
  let best: string | null = null;
  for (const m of key.matchAll(WORD_RUN)) {
    const run = m[0];
    const chars = [...run];
    const atStart = m.index === 0 && SPACELESS.test(chars[0]!);
    const atEnd = m.index + run.length === key.length && SPACELESS.test(chars[chars.length - 1]!);
    if (atStart || atEnd) continue;
    if (best === null || chars.length > [...best].length) best = run;
  }
  return best;
}

/** ASCII letters, digits, underscore and whitespace never start a substring key (see substringKey). */
const plainAscii = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 32 || (code >= 9 && code <= 13);

/**
 * For a term without an anchor word: one or two characters it contains literally, starting at its first
 * character that is neither a plain ASCII word character nor whitespace (such a term always has one: a
 * spaceless letter or a symbol), not running into a space (a space in a term matches any whitespace).
 */
export function substringKey(key: string): string {
  const chars = [...key];
  const i = chars.findIndex((c) => !plainAscii(c.codePointAt(0)!));
  const first = chars[i]!;
  const next = chars[i + 1];
  return next !== undefined && next !== " " ? first + next : first;
}

interface Entry {
  key: string;
  text: string;
  pattern: RegExp | null;
}

/**
 * Terms (with a value each: who tracks them) compiled once. `find` answers the values of every term that
 * occurs in a post's title or body, in the order the terms were given.
 */
export class TermIndex<T> {
  private readonly entries: Entry[] = [];
  /** Per entry, the values of the terms that share its text, with their order of arrival. */
  private readonly values: { value: T; order: number }[][] = [];
  private readonly byWord = new Map<string, number[]>();
  private readonly bySubstring = [new Map<string, number[]>(), new Map<string, number[]>()];
  private stamps = new Uint32Array(0);
  private round = 0;
  /** Patterns the last `find` tested: the terms whose anchor the post contains, whatever the index's size. */
  lastTested = 0;

  constructor(terms: Iterable<{ text: string; value: T }>) {
    const byKey = new Map<string, number>();
    let order = 0;
    for (const { text, value } of terms) {
      const key = termKey(text);
      if (key === "") continue;
      let at = byKey.get(key);
      if (at === undefined) {
        at = this.entries.length;
        byKey.set(key, at);
        this.entries.push({ key, text, pattern: null });
        this.values.push([]);
        this.indexEntry(key, at);
      }
      this.values[at]!.push({ value, order: order++ });
    }
    this.stamps = new Uint32Array(this.entries.length);
  }

  get size(): number {
    return this.entries.length;
  }

  private indexEntry(key: string, at: number): void {
    const word = anchorWord(key);
    const [map, k] =
      word !== null ? [this.byWord, word] : [this.bySubstring[[...substringKey(key)].length - 1]!, substringKey(key)];
    const list = map.get(k);
    if (list) list.push(at);
    else map.set(k, [at]);
  }

  private candidate(list: number[] | undefined, out: number[]): void {
    if (!list) return;
    for (const at of list) {
      if (this.stamps[at] === this.round) continue;
      this.stamps[at] = this.round;
      out.push(at);
    }
  }

  /** Entries whose anchor word or substring key occurs in the (normalized) text. */
  private gather(text: string, out: number[]): void {
    for (const m of text.matchAll(WORD_RUN)) this.candidate(this.byWord.get(m[0]), out);
    const [one, two] = this.bySubstring as [Map<string, number[]>, Map<string, number[]>];
    if (one.size === 0 && two.size === 0) return;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 128 && plainAscii(code)) continue;
      const first = String.fromCodePoint(text.codePointAt(i)!);
      const after = i + first.length;
      this.candidate(one.get(first), out);
      if (after < text.length) {
        const second = String.fromCodePoint(text.codePointAt(after)!);
        this.candidate(two.get(first + second), out);
      }
      i = after - 1;
    }
  }

  /** The values of the terms the post mentions in its title or body (each term's own pattern decides). */
  find(post: { title: string; selftext: string }): T[] {
    if (this.entries.length === 0) return [];
    this.round = this.round === 0xffffffff ? 1 : this.round + 1;
    if (this.round === 1) this.stamps.fill(0);
    const title = normalizeText(post.title);
    const body = normalizeText(post.selftext);
    const candidates: number[] = [];
    this.gather(title, candidates);
    this.gather(body, candidates);
    const hits: { value: T; order: number }[] = [];
    this.lastTested = candidates.length;
    for (const at of candidates) {
      const entry = this.entries[at]!;
      entry.pattern ??= termPattern(entry.text);
      if (!entry.pattern || !(entry.pattern.test(title) || entry.pattern.test(body))) continue;
      for (const v of this.values[at]!) hits.push(v);
    }
    return hits.sort((a, b) => a.order - b.order).map((h) => h.value);
  }
}
