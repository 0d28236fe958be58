import { describe, expect, it } from "vitest";
import { compileTerms, matchPost, normalizeText, type TrackedTerm } from "../../src/monitor/match";
import { batchQueries, MAX_QUERY_LENGTH } from "../../src/monitor/search-queries";

let nextId = 1;
const kw = (text: string, ambiguous = false): TrackedTerm => ({ kind: "keyword", id: nextId++, text, ambiguous });
const comp = (id: number, text: string, ambiguous = false): TrackedTerm => ({
  kind: "competitor",
  id,
  text,
  ambiguous,
});

/** Whether `term` matches a post whose title is `title` (and whose body is `body`). */
function hits(term: string, title: string, body = ""): boolean {
  const t = compileTerms([kw(term)]);
  return matchPost({ title, selftext: body }, t).keywordIds.length === 1;
}

describe("matching rules (docs/monitoring.md)", () => {
  it("matches whole words, case-insensitively, in title or body", () => {
    expect(hits("email", "Best EMAIL tool?")).toBe(true);
    expect(hits("email", "nothing here", "my Email bounced")).toBe(true);
    expect(hits("Email", "email")).toBe(true);
  });

  it("never matches a term inside another word (decoys)", () => {
    expect(hits("email", "emailing everyone")).toBe(false);
    expect(hits("email", "gmail and hotmail")).toBe(false);
    expect(hits("überweisung", "Sammelüberweisung heute")).toBe(false);
    expect(hits("list", "playlist")).toBe(false);
    expect(hits("list", "list_item")).toBe(false); // underscore is a word character
    expect(hits("api", "api2")).toBe(false); // so is a digit
  });

  it("counts punctuation, hyphens and apostrophes around a word as boundaries", () => {
    expect(hits("email", "(email)")).toBe(true);
    expect(hits("email", "email-marketing")).toBe(true);
    expect(hits("email", "email's reach")).toBe(true);
  });

  it("needs accents to match, case-folds beyond ASCII and normalizes to NFC", () => {
    expect(hits("überweisung", "Überweisung")).toBe(true);
    expect(hits("überweisung", "ÜBERWEISUNG")).toBe(true);
    expect(hits("Überweisung", "Uberweisung")).toBe(false);
    expect(hits("Uberweisung", "Überweisung")).toBe(false);
    // decomposed U+0055 U+0308 in the text is the same word after NFC
    expect(hits("Überweisung", "U\u0308berweisung")).toBe(true);
    expect(hits("café", "CAFÉ au lait")).toBe(true);
    expect(hits("cafe", "café")).toBe(false);
    // a mark NFC cannot compose stays part of its letter: `q` is not `q̃`
    expect(hits("q", "q\u0303 thing")).toBe(false);
  });

  it("matches phrases across any run of whitespace, not across other characters", () => {
    expect(hits("email marketing", "Email   marketing tips")).toBe(true);
    expect(hits("email marketing", "email\n\tmarketing")).toBe(true);
    expect(hits("email marketing", "email-marketing")).toBe(false);
    expect(hits("email marketing", "email marketingtool")).toBe(false);
  });

  it("keeps hyphens and apostrophes in terms, in their typographic forms too", () => {
    expect(hits("e-mail", "send an E-Mail")).toBe(true);
    expect(hits("e-mail", "send an e\u2011mail")).toBe(true); // non-breaking hyphen
    expect(hits("e-mail", "send an email")).toBe(false);
    expect(hits("don't", "I don\u2019t know")).toBe(true);
    expect(hits("o'reilly", "O'Reilly books")).toBe(true);
  });

  it("handles symbols at a term's edge: c++, .net, domain names", () => {
    expect(hits("c++", "Learning C++ in 2026")).toBe(true);
    expect(hits("c++", "abc++")).toBe(false);
    expect(hits("c++", "learning c in 2026")).toBe(false);
    expect(hits(".net", "moving to .NET 9")).toBe(true);
    expect(hits(".net", "asp.net core")).toBe(true);
    expect(hits(".net", "the .network")).toBe(false);
    expect(hits("kit.com", "I use kit.com for this")).toBe(true);
    expect(hits("kit.com", "see www.kit.com.")).toBe(true);
    expect(hits("kit.com", "kit.community")).toBe(false);
    expect(hits("kit.com", "kitXcom")).toBe(false); // the dot is a dot, not any character
  });

  it("matches terms in spaceless scripts (Han, Kana, Thai) as substrings", () => {
    expect(hits("東京", "東京都の天気")).toBe(true);
    expect(hits("メール", "メールマーケティングの質問")).toBe(true);
    expect(hits("อีเมล", "การตลาดผ่านอีเมลดีไหม")).toBe(true);
    expect(hits("東京", "京都")).toBe(false);
    // Latin side of a mixed term still needs its boundary
    expect(hits("iphone手机", "iphone手机壳")).toBe(true);
    expect(hits("iphone手机", "myiphone手机")).toBe(false);
  });

  it("counts an ambiguous term only with context from a non-ambiguous term", () => {
    const list = kw("list", true);
    const email = kw("email marketing");
    const drip = comp(900, "Drip", true);
    const terms = compileTerms([list, email, drip]);
    // alone: nothing
    expect(matchPost({ title: "my shopping list", selftext: "" }, terms)).toEqual({
      keywordIds: [],
      competitorIds: [],
      terms: [],
    });
    // two ambiguous terms give each other no context
    expect(matchPost({ title: "drip irrigation list", selftext: "" }, terms).keywordIds).toEqual([]);
    // with context, both count
    const m = matchPost({ title: "Email marketing: grow a list", selftext: "switched from Drip" }, terms);
    expect(m.keywordIds).toEqual([list.id, email.id].sort((a, b) => a - b));
    expect(m.competitorIds).toEqual([900]);
  });

  it("mentions a competitor by name or any of its keywords", () => {
    const terms = compileTerms([comp(7, "ConvertKit"), comp(7, "kit.com"), comp(8, "Brevo"), comp(8, "sendinblue")]);
    expect(matchPost({ title: "moving off Sendinblue", selftext: "" }, terms).competitorIds).toEqual([8]);
    expect(matchPost({ title: "kit.com vs brevo", selftext: "" }, terms).competitorIds).toEqual([7, 8]);
    expect(matchPost({ title: "convertkitty", selftext: "" }, terms).competitorIds).toEqual([]);
  });

  it("normalizes text once: NFC, lower case, plain apostrophes and hyphens", () => {
    expect(normalizeText("A\u0308\u2019\u2010")).toBe("ä'-");
  });
});

describe("OR-batched queries", () => {
  it("puts every distinct term, quoted, into as few queries as fit 512 characters", () => {
    const terms = Array.from({ length: 60 }, (_, i) => `tracked term number ${i}`);
    const queries = batchQueries([...terms, "TRACKED TERM NUMBER 1"]);
    for (const q of queries) expect(q.length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    const found = queries.flatMap((q) => q.split(" OR "));
    expect(found).toHaveLength(60);
    expect(new Set(found).size).toBe(60);
    for (const t of terms) expect(found).toContain(`"${t}"`);
    // 60 × 25 characters with " OR " between them: 1736 characters need 4 queries; 3 cannot hold them
    const total = found.reduce((n, t) => n + t.length, 0) + (found.length - 1) * 4;
    expect(queries).toHaveLength(Math.ceil(total / MAX_QUERY_LENGTH));
  });

  it("keeps a query's text stable whatever the order of the terms", () => {
    expect(batchQueries(["b", "a", "c"])).toEqual(batchQueries(["c", "b", "a"]));
    expect(batchQueries(["b", "a"])).toEqual(['"a" OR "b"']);
  });

  it("writes a double quote inside a term as a space", () => {
    expect(batchQueries(['the "best" tool'])).toEqual(['"the best tool"']);
  });
});
