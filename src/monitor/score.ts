// The deterministic score behind a post's priority and urgency (docs/monitoring.md, "Score"). Every point added or
// taken comes with a reason a person can read; docs/monitoring.md has the table and worked examples. Pure: the time is
// an argument.
import { compileTerms, matchPost } from "./match";

/** What the score needs of a matched keyword (its metrics are null until a provider measured them). */
export interface KeywordSignal {
  text: string;
  searchVolume: number | null;
  cpc: number | null;
  serpForumPosition: number | null;
  serpForumUrl: string | null;
}

export interface ScoreInput {
  title: string;
  selftext: string;
  permalink: string;
  score: number;
  numComments: number;
  createdUtc: string;
  keywords: KeywordSignal[];
  competitors: string[];
}

export interface ScoreResult {
  points: number;
  priority: "high" | "medium" | "low";
  urgency: "urgent" | "not_urgent";
  reasons: string[];
}

/** Phrases of someone about to choose or buy (written for this project; whole words, as the matcher reads them). */
const BUYING_INTENT = compileTerms(
  [
    "looking for",
    "recommend",
    "recommendation",
    "recommendations",
    "any suggestions",
    "alternative to",
    "alternatives to",
    "switch from",
    "switching from",
    "migrate from",
    "which is better",
    "worth paying",
    "worth it",
    "pricing",
    "best tool",
    "best way to",
    "should i use",
    "vs",
    "versus",
  ].map((text, i) => ({ kind: "keyword" as const, id: i, text, ambiguous: false })),
);

export const WEIGHTS = {
  buyingIntent: 30,
  question: 10,
  competitor: 20,
  volumeHigh: 15, // a matched keyword searched 10,000+ times a month
  volumeMid: 8, // 1,000+
  cpcHigh: 10, // 5.00+
  cpcMid: 5, // 1.00+
  threadRanks: 25, // this very thread is the forum's top result on the search engine for the keyword
  forumRanks: 5, // the forum ranks in the top 10 for the keyword
  fresh: 15, // under 6 hours old
  recent: 8, // under 24 hours
  old: -10, // over 3 days
  unanswered: 10, // no comments yet
  crowded: -10, // 50+ comments: a reply is less likely to be read
  popular: 5, // score 20+
} as const;

export const HIGH_AT = 50;
export const MEDIUM_AT = 25;

const HOUR = 3_600_000;
const normUrl = (u: string) => u.replace(/^https?:\/\/(www\.|old\.|new\.)?reddit\.com/i, "").replace(/\/+$/, "");

export function scorePost(input: ScoreInput, now: number): ScoreResult {
  return scoreItem(
    { ...input, intentText: input, question: input.title.includes("?") ? "the title asks a question" : null },
    now,
  );
}

/** What the score needs of a matched comment (docs/monitoring.md, "Score of a comment"). */
export interface CommentScoreInput {
  body: string;
  /** The thread's permalink (`serp_forum_url` names threads, not comments). */
  threadPermalink: string;
  score: number;
  createdUtc: string;
  keywords: KeywordSignal[];
  competitors: string[];
}

/**
 * A comment is scored by the same table as a post, read on the comment's own words: buying intent and a
 * question in its body, its own age and score, the thread's search rank. The forum gives a comment no count
 * of replies, so there is no engagement signal, and urgency does not look at one.
 */
export function scoreComment(input: CommentScoreInput, now: number): ScoreResult {
  return scoreItem(
    {
      ...input,
      intentText: { title: "", selftext: input.body },
      question: input.body.includes("?") ? "the comment asks a question" : null,
      permalink: input.threadPermalink,
      numComments: null,
    },
    now,
  );
}

interface ScoreItem {
  intentText: { title: string; selftext: string };
  /** The reason of the question signal, or null when the item asks none. */
  question: string | null;
  permalink: string;
  score: number;
  /** null: unknown (a comment), no engagement signal. */
  numComments: number | null;
  createdUtc: string;
  keywords: KeywordSignal[];
  competitors: string[];
}

function scoreItem(input: ScoreItem, now: number): ScoreResult {
  const reasons: string[] = [];
  let points = 0;
  const add = (n: number, reason: string) => {
    points += n;
    reasons.push(`${n >= 0 ? "+" : ""}${n} ${reason}`);
  };

  const intent = matchPost(input.intentText, BUYING_INTENT).terms;
  if (intent.length > 0) add(WEIGHTS.buyingIntent, `buying intent ("${intent.slice(0, 3).join('", "')}")`);
  if (input.question) add(WEIGHTS.question, input.question);
  if (input.competitors.length > 0) add(WEIGHTS.competitor, `mentions ${input.competitors.join(", ")}`);
  addMetricSignals(input, add);

  const ageHours = Math.max(0, (now - Date.parse(input.createdUtc)) / HOUR);
  if (ageHours < 6) add(WEIGHTS.fresh, "posted under 6 hours ago");
  else if (ageHours < 24) add(WEIGHTS.recent, "posted under 24 hours ago");
  else if (ageHours > 72) add(WEIGHTS.old, "older than 3 days");

  if (input.numComments === 0) add(WEIGHTS.unanswered, "no comments yet");
  else if (input.numComments !== null && input.numComments >= 50)
    add(WEIGHTS.crowded, `${input.numComments} comments already`);
  if (input.score >= 20) add(WEIGHTS.popular, `score ${input.score}`);

  const priority = points >= HIGH_AT ? "high" : points >= MEDIUM_AT ? "medium" : "low";
  // Urgent: worth answering now, while the thread is young and a reply is still seen.
  const crowded = input.numComments !== null && input.numComments >= 20;
  const urgent = ageHours < 24 && points >= MEDIUM_AT && !crowded;
  const rule =
    input.numComments === null
      ? "urgent (under 24 hours old, medium or high)"
      : "urgent (under 24 hours old, medium or high, under 20 comments)";
  reasons.push(
    `= ${points} points: ${priority} priority (${HIGH_AT}+ high, ${MEDIUM_AT}+ medium)` +
      `; ${urgent ? rule : "not urgent"}`,
  );
  return { points, priority, urgency: urgent ? "urgent" : "not_urgent", reasons };
}

/** Search volume, cost per click and search rank of the matched keywords (the highest of each counts). */
function addMetricSignals(
  input: Pick<ScoreItem, "keywords" | "permalink">,
  add: (n: number, reason: string) => void,
): void {
  const volume = Math.max(-1, ...input.keywords.map((k) => k.searchVolume ?? -1));
  const volumeKw = input.keywords.find((k) => k.searchVolume === volume);
  if (volumeKw && volume >= 10_000)
    add(WEIGHTS.volumeHigh, `"${volumeKw.text}" is searched ${volume.toLocaleString("en-US")} times a month`);
  else if (volumeKw && volume >= 1_000)
    add(WEIGHTS.volumeMid, `"${volumeKw.text}" is searched ${volume.toLocaleString("en-US")} times a month`);

  const cpc = Math.max(-1, ...input.keywords.map((k) => k.cpc ?? -1));
  const cpcKw = input.keywords.find((k) => k.cpc === cpc);
  if (cpcKw && cpc >= 5) add(WEIGHTS.cpcHigh, `"${cpcKw.text}" costs ${cpc.toFixed(2)} a click in ads`);
  else if (cpcKw && cpc >= 1) add(WEIGHTS.cpcMid, `"${cpcKw.text}" costs ${cpc.toFixed(2)} a click in ads`);

  const ranked = input.keywords.find(
    (k) => k.serpForumUrl !== null && normUrl(k.serpForumUrl) === normUrl(input.permalink),
  );
  const forumRanked = input.keywords
    .filter((k) => k.serpForumPosition !== null && k.serpForumPosition <= 10)
    .sort((a, b) => (a.serpForumPosition ?? 0) - (b.serpForumPosition ?? 0))[0];
  if (ranked)
    add(
      WEIGHTS.threadRanks,
      `this thread is the search engine's forum result #${ranked.serpForumPosition} for "${ranked.text}"`,
    );
  else if (forumRanked)
    add(
      WEIGHTS.forumRanks,
      `the forum ranks #${forumRanked.serpForumPosition} in search results for "${forumRanked.text}"`,
    );
}
