// The article sets of the corpus (../shared/corpus/extraction, see its README) and the metric each is scored
// with, for `npm run bench:extract`: WCXB's development articles (bag-of-words F1 on lowercased \w+ tokens,
// `with` / `without` snippets), DAnIEL (word F1, Chinese by character, headline included), CleanPortalEval
// (word F1 after aligning the two word sequences, as cleaneval.py does; headline included) and the five
// NetNewsWire pages (plain text of a whole page; word F1). Both sides, ours and the peer, go through the
// same scoring.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { decodeHTML } from "entities";

const EXTRACTION = (corpus) => path.join(corpus, "extraction");

// ---------------------------------------------------------------------------------------------------------
// Tokens and scores

/** WCXB's tokens: Python's `\w+` on lowercased text (letters, digits, marks, underscore). */
export function wordTokens(text) {
  return text.toLowerCase().match(/[\p{L}\p{N}\p{M}_]+/gu) ?? [];
}

/** As `wordTokens`, but every Han character is a token of its own (Chinese has no spaces between words). */
export function cjkTokens(text) {
  return text.toLowerCase().match(/\p{Script=Han}|(?:(?!\p{Script=Han})[\p{L}\p{N}\p{M}_])+/gu) ?? [];
}

function counts(tokens) {
  const map = new Map();
  for (const t of tokens) map.set(t, (map.get(t) ?? 0) + 1);
  return map;
}

function prf(overlap, predicted, reference) {
  if (!reference) return { precision: predicted ? 0 : 1, recall: 1, f1: predicted ? 0 : 1 };
  if (!predicted) return { precision: 1, recall: 0, f1: 0 };
  const precision = overlap / predicted;
  const recall = overlap / reference;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** Bag-of-words precision / recall / F1 (WCXB's word_f1: an empty gold scores 1 only for an empty answer). */
export function bagScore(predicted, reference, tokenize = wordTokens) {
  const p = counts(tokenize(predicted));
  const r = counts(tokenize(reference));
  let overlap = 0;
  let np = 0;
  let nr = 0;
  for (const c of p.values()) np += c;
  for (const c of r.values()) nr += c;
  for (const [t, c] of p) overlap += Math.min(c, r.get(t) ?? 0);
  return prf(overlap, np, nr);
}

/**
 * Word precision / recall / F1 after aligning the two word sequences (longest common subsequence), the way
 * CleanEval scores: a word counts only where it lines up. Above 40 million cells it falls back to the bag.
 */
export function alignedScore(predicted, reference, tokenize = wordTokens) {
  const a = tokenize(predicted);
  const b = tokenize(reference);
  if (!a.length || !b.length) return prf(0, a.length, b.length);
  if (a.length * b.length > 4e7) return bagScore(predicted, reference, tokenize);
  let prev = new Uint32Array(b.length + 1);
  let row = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      row[j] = ai === b[j - 1] ? prev[j - 1] + 1 : Math.max(row[j - 1], prev[j]);
    }
    [prev, row] = [row, prev];
  }
  return prf(prev[b.length], a.length, b.length);
}

const squash = (s) => s.toLowerCase().replace(/\s+/g, " ").trim();
/** `squash` with typographic single and double quotes read as the straight ones, on both sides. */
const quoteFolded = (s) =>
  squash(s)
    .replace(/[‘’‚‛]/g, "'")
    .replace(/[“”„‟]/g, '"');
/**
 * Text as its sequence of WCXB tokens (the word F1's `\w+`), led by a space so that a match starts on a word.
 * It may end inside one: some snippets are cut in the middle of a word ("But with so many m").
 */
const wordSequence = (s) => ` ${wordTokens(s).join(" ")}`;

/**
 * WCXB snippets: how many `with` snippets the text contains and how many `without` snippets it avoids. A
 * snippet is found when its words occur in a row in the text's words, tokenized as the word F1 tokenizes
 * (`\w+`, lowercased): the snippets were written from the annotators' normalized text (straight quotes where
 * pages have typographic ones, "It's" against "It’s"; some with an undecoded `&#39;`), so a character-exact
 * search misses snippets that are there. `literal` keeps the character-exact counts (whitespace and case
 * folded) for comparison with earlier figures.
 */
export function snippets(text, withList, withoutList) {
  const t = wordSequence(text);
  const found = withList.filter((s) => t.includes(wordSequence(s))).length;
  const avoided = withoutList.filter((s) => !t.includes(wordSequence(s))).length;
  const literal = squash(text);
  const folded = quoteFolded(text);
  const lower = text.toLowerCase();
  return {
    found,
    withTotal: withList.length,
    avoided,
    withoutTotal: withoutList.length,
    literalFound: withList.filter((s) => literal.includes(squash(s))).length,
    literalAvoided: withoutList.filter((s) => !literal.includes(squash(s))).length,
    foldedFound: withList.filter((s) => folded.includes(quoteFolded(s))).length,
    foldedAvoided: withoutList.filter((s) => !folded.includes(quoteFolded(s))).length,
    // WCXB's own evaluate.py: the share of a page's snippets found (1 for a page with none), text as
    // written (case folded only), to be averaged over pages rather than pooled.
    upstreamWith: withList.length
      ? withList.filter((s) => lower.includes(s.toLowerCase())).length / withList.length
      : 1,
    upstreamWithout: withoutList.length
      ? withoutList.filter((s) => lower.includes(s.toLowerCase())).length / withoutList.length
      : 1,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Metadata

const norm = (s) =>
  (s ?? "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** A metadata field matches when it is the same words (case and punctuation aside). */
export function sameText(ours, gold) {
  return !!norm(gold) && norm(ours) === norm(gold);
}

/** A title matches when it is the same words, or the gold title is ours followed by a separated site part. */
export function sameTitle(ours, gold) {
  if (sameText(ours, gold)) return true;
  const o = norm(ours);
  const g = (gold ?? "").trim();
  if (!o) return false;
  const m = g.match(/^(.*\S)\s+[|\-–—:·»]\s+(.{1,60})$/u);
  return !!m && norm(m[1]) === o;
}

/** Dates match on the calendar day (the gold often has no time of day). */
export function sameDay(ours, gold) {
  if (!ours || !gold) return false;
  const g = String(gold).match(/\d{4}-\d{2}-\d{2}/)?.[0];
  return !!g && ours.slice(0, 10) === g;
}

// ---------------------------------------------------------------------------------------------------------
// The sets

function gunzip(file) {
  return zlib.gunzipSync(fs.readFileSync(file));
}

/** WCXB development articles: 711 pages, gold text plus title / author / publish_date and snippets. */
export function wcxbPages(corpus) {
  const root = path.join(EXTRACTION(corpus), "Murrough-Foley__web-content-extraction-benchmark", "dev");
  return fs
    .readdirSync(path.join(root, "ground-truth"))
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const id = f.replace(/\.json$/, "");
      const doc = JSON.parse(fs.readFileSync(path.join(root, "ground-truth", f), "utf8"));
      const gt = doc.ground_truth ?? {};
      return {
        name: id,
        url: doc.url || `http://wcxb.test/${id}`,
        bytes: () => gunzip(path.join(root, "html", `${id}.html.gz`)),
        gold: gt.main_content ?? "",
        with: gt.with ?? [],
        without: gt.without ?? [],
        meta: { title: gt.title ?? null, author: gt.author ?? null, date: gt.publish_date ?? null },
      };
    });
}

/** DAnIEL as re-annotated for waddle: 898 pages; the reference is one `<p>` per line, headline first. */
export function danielPages(corpus) {
  const root = path.join(EXTRACTION(corpus), "rundimeco__waddle", "corpora", "Corpus_daniel_v2.1");
  const languages = JSON.parse(fs.readFileSync(path.join(root, "doc_lg.json"), "utf8"));
  return fs
    .readdirSync(path.join(root, "html"))
    .filter((f) => f.endsWith(".gz"))
    .sort()
    .map((f) => {
      const name = f.replace(/\.gz$/, "");
      const host = name.split("_")[1] ?? "daniel.test";
      const reference = fs.readFileSync(path.join(root, "reference", name), "utf8");
      return {
        name,
        language: languages[name] ?? "?",
        url: `http://${host}/${name}`,
        bytes: () => gunzip(path.join(root, "html", f)),
        // Tags stripped (one reference still carries markup), entities as characters.
        gold: decodeHTML(reference.replace(/<[^>]*>/g, "\n")),
      };
    });
}

/** CleanPortalEval: 71 pages; CleanEval-format gold (URL line, <p>/<h>/<l> markers, escaped entities). */
export function cleanPortalPages(corpus) {
  const root = path.join(EXTRACTION(corpus), "ppke-nlpg__CleanPortalEval");
  return fs
    .readdirSync(path.join(root, "GoldStandard"))
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .map((f) => {
      const name = f.replace(/\.txt$/, "");
      const raw = fs.readFileSync(path.join(root, "GoldStandard", f), "utf8");
      const url = raw.match(/^URL:\s*(\S+)/m)?.[1] ?? `http://cleanportal.test/${name}`;
      const gold = decodeHTML(
        raw
          .replace(/^URL:.*$/m, "")
          .replace(/<!--[\s\S]*?-->/g, "")
          .replace(/<[phl]>/g, "\n"),
      );
      return { name, url, bytes: () => gunzip(path.join(root, "input", `${name}.html.gz`)), gold };
    });
}

/** NetNewsWire's five pages and the plain text each should yield (a whole page's text, not an article). */
export function netNewsWirePages(corpus) {
  const root = path.join(
    EXTRACTION(corpus),
    "Ranchero-Software__NetNewsWire/Modules/RSCore/Tests/RSCoreTests/Resources",
  );
  return fs
    .readdirSync(root)
    .filter((f) => f.endsWith(".html"))
    .sort()
    .map((f) => {
      const name = f.replace(/\.html$/, "");
      return {
        name,
        url: `https://${name}.test/`,
        bytes: () => fs.readFileSync(path.join(root, f)),
        gold: fs.readFileSync(path.join(root, `${name}.txt`), "utf8"),
      };
    });
}

/** The readability test pages (`pagesDir`, each a directory with its source.html), for benches that only run the engine. */
export function readabilityPages(pagesDir) {
  return fs
    .readdirSync(pagesDir)
    .sort()
    .map((name) => ({
      name,
      url: "http://fakehost/test/page.html",
      bytes: () => fs.readFileSync(path.join(pagesDir, name, "source.html")),
    }));
}

/** Every set by the name `--sets` takes, each listing its pages when called. */
export function pageSets(corpus, readabilityDir) {
  return {
    readability: () => readabilityPages(readabilityDir),
    wcxb: () => wcxbPages(corpus),
    daniel: () => danielPages(corpus),
    cleanportal: () => cleanPortalPages(corpus),
    netnewswire: () => netNewsWirePages(corpus),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The metric of each set

/**
 * The scored article sets besides the readability pages, by the name `--sets` takes: each with its label,
 * metric, pages, score function, and whether the headline is scored with the body.
 */
export const scoredSets = {
  wcxb: {
    label: "WCXB dev articles",
    metric: "bag-of-words F1, \\w+ tokens",
    pages: wcxbPages,
    score: (text, page) => bagScore(text, page.gold),
    withTitle: false,
  },
  daniel: {
    label: "DAnIEL (en zh ru pl el)",
    metric: "bag-of-words F1, Chinese by character, headline + body",
    pages: danielPages,
    score: (text, page) => bagScore(text, page.gold, cjkTokens),
    withTitle: true,
  },
  cleanportal: {
    label: "CleanPortalEval",
    metric: "aligned word F1 (cleaneval), headline + body",
    pages: cleanPortalPages,
    score: (text, page) => alignedScore(text, page.gold),
    withTitle: true,
  },
  netnewswire: {
    label: "NetNewsWire pages",
    metric: "bag-of-words F1 against the whole page's text",
    pages: netNewsWirePages,
    score: (text, page) => bagScore(text, page.gold),
    withTitle: true,
  },
};
