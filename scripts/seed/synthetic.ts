// Synthetic, realistic workspace content for local development, the demo workspace and the benchmarks: the
// keywords and competitors an email-marketing product would track, and forum posts that mention them.
// Deterministic for a given seed. What each post matched, its priority, urgency and score reasons are the
// product's own (src/monitor/pass.ts ingestLink: the matcher and the scorer a monitoring pass runs), so the
// demo explains itself as monitored posts do. Written through scripts/seed/rows.ts by scripts/seed/workspace.ts.

import { ingestLink, trackedTerms } from "../../src/monitor/pass";
import { createRandom } from "./random";
import type { SeedCompetitor, SeedKeyword, SeedPost } from "./rows";

type Random = ReturnType<typeof createRandom>;

interface KeywordSpec {
  keyword: string;
  search_volume: number | null;
  cpc: string | null;
  serp_forum_position: number | null;
  is_ambiguous?: boolean;
  active?: boolean;
}

interface CompetitorSpec {
  name: string;
  website_url: string;
  keywords: string[];
  is_ambiguous?: boolean;
}

const SUBREDDITS = [
  "emailmarketing",
  "marketing",
  "smallbusiness",
  "Entrepreneur",
  "SaaS",
  "startups",
  "ecommerce",
  "Newsletters",
];

const KEYWORDS: KeywordSpec[] = [
  { keyword: "email marketing", search_volume: 74000, cpc: "14.20", serp_forum_position: 4 },
  { keyword: "newsletter platform", search_volume: 6600, cpc: "9.80", serp_forum_position: 2 },
  { keyword: "open rate", search_volume: 12100, cpc: "4.10", serp_forum_position: 6 },
  { keyword: "deliverability", search_volume: 5400, cpc: "11.50", serp_forum_position: 3 },
  { keyword: "drip campaign", search_volume: 3600, cpc: "8.70", serp_forum_position: null },
  { keyword: "mailing list", search_volume: 18100, cpc: "3.90", serp_forum_position: 5 },
  { keyword: "cold email", search_volume: 22200, cpc: "12.30", serp_forum_position: 1 },
  { keyword: "autoresponder", search_volume: 2900, cpc: "6.40", serp_forum_position: null },
  { keyword: "welcome sequence", search_volume: 1300, cpc: "5.20", serp_forum_position: 7 },
  { keyword: "spam folder", search_volume: 8100, cpc: "2.60", serp_forum_position: 2 },
  // Ambiguous on its own ("list" means many things); counts only beside another tracked term.
  { keyword: "list", search_volume: null, cpc: null, serp_forum_position: null, is_ambiguous: true },
  { keyword: "segmentation", search_volume: 4400, cpc: "7.90", serp_forum_position: null, active: false },
];

const COMPETITORS: CompetitorSpec[] = [
  { name: "Mailchimp", website_url: "https://mailchimp.com", keywords: ["mailchimp", "intuit mailchimp"] },
  { name: "ConvertKit", website_url: "https://convertkit.com", keywords: ["convertkit", "kit.com"] },
  { name: "Klaviyo", website_url: "https://www.klaviyo.com", keywords: ["klaviyo"] },
  { name: "Brevo", website_url: "https://www.brevo.com", keywords: ["brevo", "sendinblue"] },
  { name: "Beehiiv", website_url: "https://www.beehiiv.com", keywords: ["beehiiv"] },
  // Ambiguous: "Drip" is also an ordinary word.
  { name: "Drip", website_url: "https://www.drip.com", keywords: ["drip.com"], is_ambiguous: true },
];

const BUSINESSES = [
  "Shopify store",
  "bakery",
  "B2B SaaS",
  "coaching business",
  "podcast",
  "nonprofit",
  "agency",
  "Etsy shop",
  "local gym",
  "indie game studio",
];
const SIZES = ["300", "1,200", "5k", "12k", "40,000", "150k"];

// {kw} a keyword, {kw2} another, {comp}/{comp2} competitors, {biz} a business, {n} a list size.
const TITLES_WITH_COMPETITOR = [
  "Is {comp} still worth it for a {biz} with {n} subscribers?",
  "{comp} vs {comp2} for {kw}: which one did you pick?",
  "Leaving {comp} after the price increase, what are you using for {kw}?",
  "Our {kw} tanked after moving from {comp2} to {comp}",
  "Anyone else seeing {kw} problems with {comp} this week?",
  "Looking for a {comp} alternative that handles {kw} properly",
  "Migrating {n} contacts off {comp}: tips?",
];
const TITLES_WITHOUT_COMPETITOR = [
  "How do you improve {kw} for a small {biz}?",
  "Looking for a cheap tool for {kw} and {kw2}",
  "What's your {kw} setup in 2025?",
  "Need recommendations: {kw} for a {biz} with {n} subscribers",
  "Is {kw} even worth the effort for a {biz}?",
  "First {kw} went out today, results inside",
  "Help: half our emails land in the spam folder after a {kw} change",
  "Best practices for {kw} when you only have {n} subscribers?",
];
const OPENERS = [
  "We run a {biz} and have about {n} people on our mailing list.",
  "Long-time lurker, first post. I handle marketing for a {biz}.",
  "Quick context: {biz}, two founders, no dedicated marketer.",
  "I've been doing {kw} for a {biz} for around three years now.",
  "Throwaway because my boss reads this sub.",
];
const MIDDLES = [
  "Our open rate dropped from 38% to 21% in a month and nobody can tell me why.",
  "We tried {comp} for six months; the editor is nice but the pricing jumps every time the list grows.",
  "Deliverability has been the real headache: SPF and DKIM are set up, DMARC is at p=none.",
  "I set up a welcome sequence with five emails and the second one gets almost no clicks.",
  "Our drip campaign converts well on desktop but the mobile layout breaks in Outlook.",
  "Support at {comp} took four days to answer a billing question, which was the last straw.",
  "Segmentation by purchase history doubled our revenue per email, so I don't want to lose that.",
  "The autoresponder fires twice for some signups and I can't find a pattern.",
  "We're comparing pricing pages and every tool counts contacts differently.",
  "Cold email to agencies got a 2% reply rate, which feels low but I have nothing to compare with.",
  "Unsubscribes spike every time we send on a Monday morning.",
  "The integration with our checkout keeps dropping tags, so automations never trigger.",
  "I exported everything to CSV and the import into {comp2} mangled the custom fields.",
  "Our newsletter platform charges per seat now, which is absurd for a team of two.",
];
const ASKS = [
  "Should I just switch, or is this fixable?",
  "Is there a tool you'd actually recommend for this?",
  "We're ready to pay for something that works. Budget is maybe $100 a month.",
  "Any advice appreciated, even if it's 'you're doing it all wrong'.",
  "Would love to hear what worked for you.",
  "Looking for recommendations before our contract renews next week.",
  "Is anyone else dealing with this?",
];
const USERS = [
  "growth_gal",
  "shopify_sam",
  "throwaway_mktg",
  "coffee_and_crm",
  "indie_dev_42",
  "ops_nerd",
  "brandon_b2b",
  "newsletter_nina",
  "mkt_manager_uk",
  "quiet_founder",
];
const fill = (template: string, slots: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => slots[key] ?? "");

const PRIORITIES = ["high", "medium", "low", null] as const;
const HOUR_SEC = 3600;
/**
 * Ages and comment counts a cycling post may take instead of its random ones, tried in order until the
 * scorer gives the priority the post stands for (fresh and unanswered scores up, old and crowded down).
 */
const RESHAPES: [ageSec: number, numComments: number][] = [1, 12, 48, 30 * 24].flatMap((hours) =>
  [0, 10, 80].map((comments): [number, number] => [hours * HOUR_SEC, comments]),
);

/** The workspace's active terms as a pass tracks them (ids: the index in KEYWORDS and COMPETITORS). */
function syntheticTracked() {
  const keywords = KEYWORDS.map((k, id) => ({ k, id }))
    .filter(({ k }) => k.active !== false)
    .map(({ k, id }) => ({
      id,
      keyword: k.keyword,
      isAmbiguous: k.is_ambiguous === true,
      searchVolume: k.search_volume,
      cpc: k.cpc,
      serpForumPosition: k.serp_forum_position,
      serpForumUrl: serpForumUrlOf(k),
    }));
  const competitors = COMPETITORS.map((c, id) => ({
    id,
    name: c.name,
    keywords: c.keywords,
    isAmbiguous: c.is_ambiguous === true,
  }));
  return trackedTerms(keywords, competitors);
}

type Tracked = ReturnType<typeof syntheticTracked>;

const serpForumUrlOf = (k: KeywordSpec) =>
  k.serp_forum_position ? `https://www.reddit.com/r/emailmarketing/search?q=${encodeURIComponent(k.keyword)}` : null;

/**
 * One synthetic post. The first posts cycle through every priority, urgency and answered/archived/skipped
 * state so even a small seed covers them; the rest is random with realistic proportions.
 */
function makePost(i: number, rnd: Random, baseId: number, nowSec: number, tracked: Tracked): SyntheticPost {
  const active = KEYWORDS.filter((k) => k.active !== false && !k.is_ambiguous);
  const kw = rnd.pick(active).keyword;
  let kw2 = rnd.pick(active).keyword;
  if (kw2 === kw) kw2 = "mailing list";
  const withCompetitor = i % 3 === 0 || rnd.next() < 0.3;
  const comp = rnd.pick(COMPETITORS.filter((c) => !c.is_ambiguous));
  let comp2 = rnd.pick(COMPETITORS);
  if (comp2 === comp) comp2 = COMPETITORS[(COMPETITORS.indexOf(comp) + 1) % COMPETITORS.length]!;
  const slots = { kw, kw2, comp: comp.name, comp2: comp2.name, biz: rnd.pick(BUSINESSES), n: rnd.pick(SIZES) };

  const title = fill(rnd.pick(withCompetitor ? TITLES_WITH_COMPETITOR : TITLES_WITHOUT_COMPETITOR), slots);
  const middles = [rnd.pick(MIDDLES), rnd.pick(MIDDLES)].filter((s, idx, all) => all.indexOf(s) === idx);
  // A few posts are link or image posts without body text.
  const body =
    rnd.next() < 0.04
      ? ""
      : [rnd.pick(OPENERS), ...middles, rnd.pick(ASKS)]
          .map((s) =>
            fill(s, withCompetitor ? slots : { ...slots, comp: "our current provider", comp2: "the new tool" }),
          )
          .join(" ");
  const randomAge = rnd.int(120 * 24 * 3600);
  const score = Math.floor(rnd.next() ** 3 * 900) - 5;
  const randomComments = Math.floor(rnd.next() ** 2.5 * 300);
  const subreddit = SUBREDDITS[(i + rnd.int(SUBREDDITS.length)) % SUBREDDITS.length]!;
  const forumId = (baseId + i).toString(36);
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "")
    .slice(0, 48);
  const permalink = `/r/${subreddit}/comments/${forumId}/${slug}/`;

  // The first posts stand for every priority, one after another (and, every fourth, a post without a score:
  // no priority, urgency or reasons). A post stays as drawn unless the scorer gives it another priority than
  // it stands for; then it takes the first age and comment count of RESHAPES that the scorer agrees with.
  const cycling = i < 12;
  const target = cycling ? PRIORITIES[i % 4]! : undefined;
  const ingested = (ageSec: number, numComments: number) => {
    const fields = { title, selftext: body, permalink, score, numComments, createdUtc: iso(nowSec - ageSec) };
    return { ageSec, numComments, result: ingestLink(fields, tracked, nowSec * 1000) };
  };
  let chosen = ingested(randomAge, randomComments);
  if (target)
    for (const [ageSec, numComments] of RESHAPES) {
      if (chosen.result?.scored.priority === target) break;
      chosen = ingested(ageSec, numComments);
    }
  const { ageSec, numComments, result } = chosen;
  const unscored = target === null || !result;
  const names = <T extends { name?: string; keyword?: string }>(list: T[], ids: number[]) =>
    ids.map((id) => (list[id]!.name ?? list[id]!.keyword)!);
  return {
    forumId,
    subreddit,
    title,
    selftext: body,
    // The forum reports an account that no longer exists as "[deleted]".
    author: rnd.next() < 0.05 ? "[deleted]" : `${rnd.pick(USERS)}${rnd.int(100)}`,
    url: `https://www.reddit.com${permalink}`,
    score,
    numComments,
    createdUtc: iso(nowSec - ageSec),
    permalink,
    isAnswered: cycling ? i % 2 === 1 : rnd.next() < 0.25,
    archived: cycling ? i % 6 === 5 : rnd.next() < 0.1,
    skipped: cycling ? i % 4 === 2 : rnd.next() < 0.08,
    priority: unscored ? null : result.scored.priority,
    urgency: unscored ? null : result.scored.urgency,
    scoreReasons: unscored ? [] : result.scored.reasons,
    keywords: result ? names(KEYWORDS, result.match.keywordIds) : [],
    competitors: result ? names(COMPETITORS, result.match.competitorIds) : [],
  };
}

const iso = (sec: number) => new Date(sec * 1000).toISOString();

/** A post with the names of the keywords it matched and the competitors it mentions. */
export interface SyntheticPost extends SeedPost {
  keywords: string[];
  competitors: string[];
}

/** The tracked keywords of the synthetic workspace, with search data on most (`checkedAt`: when it was read). */
export function syntheticKeywords(checkedAt: string): SeedKeyword[] {
  return KEYWORDS.map((k) => ({
    keyword: k.keyword,
    active: k.active !== false,
    isAmbiguous: k.is_ambiguous === true,
    searchVolume: k.search_volume,
    cpc: k.cpc,
    serpForumPosition: k.serp_forum_position,
    serpForumUrl: serpForumUrlOf(k),
    serpCheckedAt: k.search_volume ? checkedAt : null,
  }));
}

export function syntheticCompetitors(): SeedCompetitor[] {
  return COMPETITORS.map((c) => ({
    name: c.name,
    websiteUrl: c.website_url,
    keywords: c.keywords,
    isAmbiguous: c.is_ambiguous === true,
  }));
}

/**
 * `count` synthetic posts from the last 120 days before `nowMs`, deterministic for `seed`. Forum ids are
 * 7-character base36 strings, like the forum's own.
 */
export function syntheticPosts(count: number, seed: number, nowMs: number): SyntheticPost[] {
  const rnd = createRandom(seed);
  const nowSec = Math.floor(nowMs / 1000);
  const baseId = 36 ** 6 + rnd.int(36 ** 6);
  const tracked = syntheticTracked();
  return Array.from({ length: count }, (_, i) => makePost(i, rnd, baseId, nowSec, tracked));
}
