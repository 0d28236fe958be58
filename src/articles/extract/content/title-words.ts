// Whether a block talks about what the title says: the share of the title's words found in its text.

import { type ElementNode, textContent } from "../html-tree";
import { hasAncestorNode, literal } from "../predicates";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The words of a text: runs of letters and digits, lowercased, cut to their stem; Chinese, Japanese and Korean by character. */
function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const run of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (CJK.test(run)) out.push(...run);
    // Inflected languages change a word's ending ("американцы", "американские"): its first five letters stand for it.
    else if (run.length >= 3) out.push(run.slice(0, 5));
  }
  return out;
}

/**
 * The share of the title's distinct words (as `wordsOf` gives them) that occur in the element's text: a
 * character of Chinese, Japanese or Korean anywhere; another stem at the start of a word, and a stem
 * shorter than five letters as a whole word. One search over the text, which may be the whole page.
 */
function titleWordCover(el: ElementNode, titleWords: Set<string>, enough: number): number {
  const text = textContent(el);
  // The search stops once `enough` of the title's words are found: the share is then at least that.
  const wanted = enough * titleWords.size;
  let found = 0;
  const stems: string[] = [];
  for (const w of titleWords) {
    if (CJK.test(w)) {
      if (text.includes(w)) found++;
    } else stems.push(w);
  }
  if (stems.length) {
    // As one case-insensitive pattern, `(?<![\p{L}\p{N}])(?:stem|short(?![\p{L}\p{N}])|...)` searched
    // with matchAll, but without compiling the letter classes for every title (about a millisecond each
    // time, more than the search): a plain alternation of the stems finds where one starts, and there the
    // precompiled lookarounds and each stem in order decide as that pattern would.
    const { any, each } = stemPatterns(stems);
    const seen = new Set<string>();
    let from = 0;
    for (;;) {
      any.lastIndex = from;
      const hit = any.exec(text);
      if (!hit) break;
      const at = hit.index;
      const match = stemAt(text, at, stems, each);
      if (match === null) {
        from = at + ((text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1);
        continue;
      }
      from = at + match.length;
      seen.add(match.toLowerCase());
      if (found + seen.size >= wanted) break;
    }
    found += seen.size;
  }
  return found / titleWords.size;
}

/**
 * The search patterns of a title's stems: the alternation and each stem alone. The same title is searched for
 * in several candidates and in each of a page's passes, so the last title's patterns are kept (building them
 * anew was a third of this search's time on the readability and WCXB pages). Their `lastIndex` is set before
 * every use.
 */
function stemPatterns(stems: string[]): { any: RegExp; each: RegExp[] } {
  const key = stems.join("\n");
  if (lastStems?.key !== key) {
    const each: RegExp[] = [];
    for (const w of stems) each.push(new RegExp(literal(w), "iuy"));
    lastStems = { key, any: new RegExp(stems.map(literal).join("|"), "giu"), each };
  }
  return lastStems;
}
let lastStems: { key: string; any: RegExp; each: RegExp[] } | null = null;

/** The lookarounds of a title word (see titleWordCover), compiled once for every page. */
const NOT_AFTER_WORD = /(?<![\p{L}\p{N}])/iuy;
const NOT_BEFORE_WORD = /(?![\p{L}\p{N}])/iuy;

/** The first stem (in order) matching at `at`, not inside a word, a stem shorter than five letters ending one. */
function stemAt(text: string, at: number, stems: string[], each: RegExp[]): string | null {
  NOT_AFTER_WORD.lastIndex = at;
  if (!NOT_AFTER_WORD.test(text)) return null;
  for (let i = 0; i < stems.length; i++) {
    const re = each[i]!;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) continue;
    if (stems[i]!.length < 5) {
      NOT_BEFORE_WORD.lastIndex = at + m[0].length;
      if (!NOT_BEFORE_WORD.test(text)) continue;
    }
    return m[0];
  }
  return null;
}

/**
 * An article talks about what its title says: when the best-scored block shares (almost) none of the
 * title's words and another strong candidate shares most of them, that one is the article (a legal notice
 * or a list of other stories, full of commas, outscoring a short news item).
 */
export function preferTitleWords(
  initial: ElementNode,
  top: ElementNode[],
  scores: Map<ElementNode, number>,
  title: string,
): ElementNode {
  const titleWords = new Set(wordsOf(title));
  if (titleWords.size < 3) return initial;
  if (titleWordCover(initial, titleWords, TITLE_COVER_LOW) >= TITLE_COVER_LOW) return initial;
  const topScore = scores.get(initial)!;
  for (const candidate of top.slice(1)) {
    if (scores.get(candidate)! < topScore * TITLE_SCORE_SHARE) continue;
    if (hasAncestorNode(initial, candidate)) continue;
    if (titleWordCover(candidate, titleWords, TITLE_COVER_HIGH) >= TITLE_COVER_HIGH) return candidate;
  }
  return initial;
}

const TITLE_COVER_LOW = 0.2;
const TITLE_COVER_HIGH = 0.5;
const TITLE_SCORE_SHARE = 0.2;
