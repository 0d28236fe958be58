import { describe, expect, it } from "vitest";
import { fullName, idNumber, idsAfter, idText, newestId } from "../../src/monitor/forum-ids";
import { IngestMatcher } from "../../src/monitor/ingest-matcher";
import { anchorWord, normalizeText, substringKey, TermIndex, termKey, termPattern } from "../../src/monitor/match";

// Terms and text pieces chosen to sit on every rule's edge (docs/monitoring.md, "Matching").
const TERMS = [
  "email",
  "email marketing",
  "e-mail",
  "don't",
  "c++",
  ".net",
  "kit.com",
  "überweisung",
  "café",
  "東京",
  "メール",
  "อีเมล",
  "iphone手机",
  "++",
  "a東b",
  "q",
  "list",
  "api",
  "東京 tower",
  "x-ray 大阪",
];
const PIECES = [
  "email",
  "Email",
  "emailing",
  "E-Mail",
  "e\u2011mail",
  "marketing",
  "don\u2019t",
  "C++",
  "abc++",
  ".NET",
  "asp.net",
  ".network",
  "kit.com",
  "kit.community",
  "Überweisung",
  "U\u0308berweisung",
  "Sammelüberweisung",
  "CAFÉ",
  "cafe",
  "東京都",
  "京都",
  "メールマーケティング",
  "การตลาดผ่านอีเมลดีไหม",
  "iphone手机壳",
  "myiphone手机",
  "a東b",
  "xa東b",
  "q\u0303",
  "q",
  "playlist",
  "list_item",
  "api2",
  "api",
  "tower",
  "x-ray",
  "大阪",
  "++",
];
const SEPARATORS = [" ", "  ", "\n\t", "-", "(", ")", ".", ", ", "", "_"];

/** A deterministic pseudo-random sequence (so a failure is reproducible). */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const naive = (terms: string[], title: string, body: string) => {
  const t = normalizeText(title);
  const b = normalizeText(body);
  return terms.filter((term) => {
    const p = termPattern(term);
    return p !== null && (p.test(t) || p.test(b));
  });
};

describe("the compiled matcher finds exactly what each term's own pattern finds", () => {
  it("on 3,000 generated titles and bodies built from the rules' edge cases", () => {
    const next = random(7);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
    const index = new TermIndex(TERMS.map((text) => ({ text, value: text })));
    const text = () =>
      Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(PIECES) + pick(SEPARATORS)).join("");
    let found = 0;
    for (let i = 0; i < 3_000; i++) {
      const title = text();
      const body = next() < 0.5 ? text() : "";
      const expected = naive(TERMS, title, body);
      expect(index.find({ title, selftext: body }), JSON.stringify({ title, body })).toEqual(expected);
      found += expected.length;
    }
    expect(found).toBeGreaterThan(1_000); // the texts do mention terms, not only decoys
  });

  it("anchors a term on a whole word where its pattern tests a boundary, else on a substring", () => {
    expect(anchorWord(termKey("Email  Marketing"))).toBe("marketing");
    expect(anchorWord(termKey("c++"))).toBe("c");
    expect(anchorWord(termKey("kit.com"))).toBe("kit");
    expect(anchorWord(termKey("東京"))).toBeNull();
    expect(anchorWord(termKey("iphone手机"))).toBeNull();
    expect(anchorWord(termKey("東京 tower"))).toBe("tower");
    expect(anchorWord(termKey("a東b"))).toBe("a東b");
    expect(substringKey(termKey("iphone手机"))).toBe("手机");
    expect(substringKey(termKey("++"))).toBe("++");
    expect(substringKey(termKey("東"))).toBe("東");
  });

  it("keeps one entry per distinct text, whoever tracks it, and answers every owner", () => {
    const index = new TermIndex([
      { text: "Email Marketing", value: 1 },
      { text: "email   marketing", value: 2 },
      { text: "crm", value: 3 },
    ]);
    expect(index.size).toBe(2);
    expect(index.find({ title: "email marketing and a CRM", selftext: "" })).toEqual([1, 2, 3]);
  });
});

describe("one matcher for every workspace", () => {
  const kw = (id: number, keyword: string, isAmbiguous = false) => ({
    id,
    keyword,
    isAmbiguous,
    searchVolume: null,
    cpc: null,
    serpForumPosition: null,
    serpForumUrl: null,
  });

  it("decides per workspace as the per-workspace path does: context, competitors by their keywords", () => {
    const matcher = new IngestMatcher([
      { workspaceId: 1, keywords: [kw(10, "list", true), kw(11, "email marketing")], competitors: [] },
      { workspaceId: 2, keywords: [kw(20, "list", true)], competitors: [] },
      {
        workspaceId: 3,
        keywords: [],
        competitors: [{ id: 30, name: "ConvertKit", keywords: ["kit.com"], isAmbiguous: false }],
      },
    ]);
    const post = {
      subreddit: "x",
      author: "someone",
      title: "Email marketing: grow a list",
      body: "moved from kit.com",
    };
    const found = matcher.match(post);
    expect(found.map((m) => [m.workspaceId, m.match.keywordIds, m.match.competitorIds])).toEqual([
      [1, [10, 11], []],
      [3, [], [30]],
    ]);
    // workspace 2's only term is ambiguous: no context, nothing stored
  });

  it("tests no more patterns for 2,000 workspaces than for one (only the terms a post mentions)", () => {
    const workspaces = Array.from({ length: 2_000 }, (_, w) => ({
      workspaceId: w + 1,
      keywords: Array.from({ length: 20 }, (_, j) => kw(w * 100 + j, `acme${w} k${j}`)),
      competitors: [],
    }));
    const post = { subreddit: "x", author: "someone", title: "acme42 k7 or acme1999 k19?", body: "nothing else" };
    const all = new IngestMatcher(workspaces);
    expect(all.terms).toBe(40_000);
    expect(all.distinctTerms).toBe(40_000);
    expect(all.match(post).map((m) => m.workspaceId)).toEqual([43, 2_000]);
    const tested = all.lastTested;
    const one = new IngestMatcher([workspaces[42]!]);
    expect(one.match(post).map((m) => m.workspaceId)).toEqual([43]);
    // 20 terms anchored on "acme42" and 20 on "acme1999": the rest of the 40,000 are never looked at
    expect(tested).toBe(40);
    expect(one.lastTested).toBe(20);
  });
});

describe("forum ids (base 36, allocated in order)", () => {
  it("reads and writes base 36, with or without the kind", () => {
    expect(idNumber("zz")).toBe(36 * 36 - 1);
    expect(idNumber("t3_1k2z3")).toBe(Number.parseInt("1k2z3", 36));
    expect(idNumber("t1_10")).toBe(36);
    expect(idNumber("Not-An-Id")).toBeNull();
    expect(idText(36 ** 7)).toBe("10000000");
    expect(fullName("t3", 35)).toBe("t3_z");
    expect(fullName("t1", 36)).toBe("t1_10");
  });

  it("counts the ids between two, across a carry, and finds the newest of a listing", () => {
    const from = idNumber("1zzz")!;
    expect(idsAfter(from, idNumber("2002")!, 100).map(idText)).toEqual(["2000", "2001", "2002"]);
    expect(idsAfter(0, 1_000, 100)).toHaveLength(100);
    expect(newestId(["t3_zz", "t3_100", "t3_9"])).toBe(36 ** 2);
    expect(newestId([])).toBeNull();
  });
});
