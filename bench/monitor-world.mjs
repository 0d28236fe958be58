// The monitoring benchmark's workload (bench/monitor.mjs): every workspace's 20 terms, written straight into
// the local D1 file before wrangler opens it, and the posts planted on the local forum: relevant ones (a
// workspace's term in ordinary words) and decoys built by the matching tests' rules (test/monitor/
// match.test.ts: the term inside a longer word, glued to a digit or an underscore, without its accent, a
// phrase joined by a hyphen), which no workspace may store.
import { hash32 } from "../test/fixtures/forum/http.ts";

/** Terms many workspaces share (about one workspace in fifteen tracks each). No word of one is another's. */
const COMMON = [
  "crm",
  "payroll",
  "help desk",
  "email marketing",
  "invoicing",
  "time tracking",
  "live chat",
  "landing page builder",
  "password manager",
  "bookkeeping",
  "video conferencing",
  "applicant tracking",
  "inventory management",
  "expense reports",
  "website builder",
  "knowledge base",
  "survey tool",
  "webinar platform",
  "calendar scheduling",
  "document signing",
  "cold outreach",
  "product analytics",
  "feature flags",
  "status page",
  "uptime monitoring",
  "log management",
  "customer onboarding",
  "loyalty program",
  "point of sale",
  "shift planning",
];
/** Two-word niche terms: a few workspaces share each (words in neither COMMON nor the filler). */
const NICHE_A = ["shared", "bulk", "offline", "mobile", "secure", "automated", "visual", "remote", "hybrid", "smart"];
const NICHE_B = ["inbox", "sms", "kiosk", "ledger", "roster", "sitemap", "dialer", "wiki", "forms", "receipts"];
const NICHE_C = ["studio", "engine", "suite", "hub", "desk", "cloud", "works", "lab", "flow", "base"];
const CONSONANTS = "bdfgklmnprstvz";
const VOWELS = "aeiou";
const SYLLABLES = [...CONSONANTS].flatMap((c) => [...VOWELS].map((v) => c + v));

/** Words of the other terms and of the posts' text: a brand that happens to spell one ("mobile") gets an x. */
const RESERVED = new Set([...NICHE_A, ...NICHE_B, ...NICHE_C, ...COMMON.flatMap((t) => t.split(" "))]);

/** A brand-like name of three syllables, one per index (CVCVCV, so no other term's word, or with an x). */
export function brand(i) {
  const n = SYLLABLES.length;
  const name = SYLLABLES[i % n] + SYLLABLES[Math.floor(i / n) % n] + SYLLABLES[Math.floor(i / n / n) % n];
  return RESERVED.has(name) ? `${name}x` : name;
}

const niche = (i) => `${NICHE_A[i % 10]} ${NICHE_B[Math.floor(i / 10) % 10]} ${NICHE_C[Math.floor(i / 100) % 10]}`;

/**
 * Workspace `w`'s 20 terms: one competitor (a brand of its own) and 19 keywords: 2 common, 3 niche (shared by
 * about ten workspaces), 14 brands and brand phrases of its own. Deterministic.
 */
export function termsOf(w, workspaces) {
  const nicheCount = Math.max(10, Math.floor((workspaces * 3) / 10));
  const h = hash32(`terms:${w}`);
  const keywords = [
    COMMON[h % COMMON.length],
    COMMON[(h >>> 8) % COMMON.length],
    ...[0, 1, 2].map((k) => niche(hash32(`niche:${w}:${k}`) % nicheCount)),
    ...Array.from({ length: 14 }, (_, k) => (k % 3 === 2 ? `${brand(w * 15 + k)} app` : brand(w * 15 + k))),
  ];
  return { competitor: brand(w * 15 + 14), keywords: [...new Set(keywords)] };
}

/** Every workspace's terms and, for each term text, the workspaces that track it. */
export function buildTerms(workspaces) {
  const byWorkspace = [];
  const holders = new Map();
  for (let w = 0; w < workspaces; w++) {
    const t = termsOf(w, workspaces);
    byWorkspace.push(t);
    for (const text of [t.competitor, ...t.keywords]) {
      const list = holders.get(text) ?? [];
      list.push(w);
      holders.set(text, list);
    }
  }
  return { byWorkspace, holders };
}

/** Writes the workspaces (ids 1..N in order) and their terms into the open local D1 file. */
export function writeTerms(db, { byWorkspace }) {
  db.exec("BEGIN");
  const ws = db.prepare("INSERT INTO workspaces (id, name) VALUES (?, ?)");
  const kw = db.prepare("INSERT INTO keywords (workspace_id, keyword) VALUES (?, ?)");
  const comp = db.prepare("INSERT INTO competitors (workspace_id, name) VALUES (?, ?)");
  byWorkspace.forEach((t, w) => {
    ws.run(w + 1, `bench ${w}`);
    for (const k of t.keywords) kw.run(w + 1, k);
    comp.run(w + 1, t.competitor);
  });
  db.exec("COMMIT");
}

const RELEVANT = [
  (t) => ({ title: `Anyone here tried ${t}?`, selftext: "We are comparing a few options for the office." }),
  (t) => ({
    title: "Switching from spreadsheets",
    selftext: `Has anyone moved to ${t} recently? Curious what worked.`,
  }),
  (t) => ({ title: `Looking for a recommendation: ${t.toUpperCase()} or something else`, selftext: "" }),
  (t) => ({ title: "Quick question for the group", selftext: `Our team uses ${t.replace(/ /g, "  ")} daily.` }),
];

const ACCENTED = { a: "á", e: "é", i: "í", o: "ó", u: "ú" };
/** Each changes every word of the term, so that no word of it (perhaps another term) is left whole. */
const each = (t, f) => t.split(" ").map(f).join(" ");
const DECOYS = [
  (t) => each(t, (w) => `${w}ing`), // inside a longer word
  (t) => `re${t.replace(/ /g, "")}`,
  (t) => `${t.replace(/ /g, "_")}_x`, // underscore is a word character
  (t) => each(t, (w) => `${w}2`), // so is a digit
  (t) => each(t, (w) => w.replace(/[aeiou]/, (v) => ACCENTED[v])), // accents must match
  (t) => (t.includes(" ") ? t.replace(/ /g, "-") : `${t}ista`), // a phrase joined by a hyphen
];

/** A post that mentions `term` as the matcher must find it (the i-th template). */
export const relevantPost = (term, i) => RELEVANT[i % RELEVANT.length](term);

/** A post that mentions `term` only in a form the matcher must refuse. */
export function decoyPost(term, i) {
  const made = DECOYS[i % DECOYS.length](term);
  const form = made.split(" ").some((w) => term.split(" ").includes(w)) ? DECOYS[0](term) : made; // no vowel
  return { title: `Anyone here tried ${form}?`, selftext: "We are comparing a few options for the office." };
}

/**
 * The term a planted post is about: of workspace `w`, a brand of its own (80 %), a niche term (18 %) or a
 * common one (2 %: each is tracked by about one workspace in fifteen), picked by `roll` in [0, 1).
 */
export function termFor(terms, w, roll, k) {
  const t = terms.byWorkspace[w];
  if (roll < 0.02) return t.keywords[k % 2];
  if (roll < 0.2) return t.keywords[2 + (k % 3)];
  const own = [t.competitor, ...t.keywords.slice(5)];
  return own[k % own.length];
}
