// The one decision of whether a forum item (a post or a comment) is stored for a workspace, and with which matches
// (docs/monitoring.md, "Matching", "Targeting", "Exclusions"). Every path that stores or re-matches an item asks
// `decideMatch`: a search pass, the ingester's compiled matcher (which finds the hits of every workspace at once
// and passes a workspace's own), refresh and re-matching. Pure: no I/O.
import type { ActiveCompetitor, ActiveKeyword } from "../db/monitor";
import {
  type CompiledTerm,
  compileTerms,
  countedMatch,
  type MatchResult,
  matchedAnything,
  type TrackedTerm,
  termHits,
  termPattern,
} from "./match";
import { type KeywordSignal, type ScoreResult, scoreComment, scorePost } from "./score";

/** What a workspace excludes (GET/PUT /actions/monitoring/exclusions). */
export interface Exclusions {
  terms: string[];
  subreddits: string[];
  authors: string[];
}

export const NO_EXCLUSIONS: Exclusions = { terms: [], subreddits: [], authors: [] };

export interface CompiledExclusions {
  terms: { text: string; pattern: RegExp }[];
  /** Lower-cased, without `r/`. */
  subreddits: ReadonlySet<string>;
  /** Lower-cased, without `u/`. */
  authors: ReadonlySet<string>;
}

/** A subreddit's name as compared: without `r/`, ASCII lower case (the forum's names are ASCII). */
export const subredditKey = (name: string) =>
  name
    .trim()
    .replace(/^\/?r\//i, "")
    .replace(/[A-Z]/g, (c) => c.toLowerCase());
/** An author's name as compared: without `u/`, ASCII lower case (the forum's usernames are case-insensitive). */
export const authorKey = (name: string) =>
  name
    .trim()
    .replace(/^\/?u\//i, "")
    .replace(/[A-Z]/g, (c) => c.toLowerCase());

export function compileExclusions(e: Exclusions): CompiledExclusions {
  const terms: CompiledExclusions["terms"] = [];
  for (const text of e.terms) {
    const pattern = termPattern(text);
    if (pattern) terms.push({ text, pattern });
  }
  return {
    terms,
    subreddits: new Set(e.subreddits.map(subredditKey)),
    authors: new Set(e.authors.map(authorKey)),
  };
}

/** An item as the decision reads it: a post's title and body, or a comment's body (and no title). */
export interface MatchItem {
  subreddit: string;
  author: string;
  title: string;
  body: string;
}

export type ExclusionReason = "excluded_subreddit" | "excluded_author" | "excluded_term";

export type Decision =
  | { stored: true; match: MatchResult }
  | { stored: false; reason: "no_match" | ExclusionReason; detail?: string };

/** Why the workspace's exclusions keep the item out, or null when they do not. */
export function excludedBy(
  item: MatchItem,
  exclusions: CompiledExclusions,
): { reason: ExclusionReason; detail: string } | null {
  if (exclusions.subreddits.has(subredditKey(item.subreddit)))
    return { reason: "excluded_subreddit", detail: item.subreddit };
  if (exclusions.authors.has(authorKey(item.author))) return { reason: "excluded_author", detail: item.author };
  const term = termHits(item, exclusions.terms)[0];
  return term ? { reason: "excluded_term", detail: term.text } : null;
}

/** Compiled terms keep their subreddits as a set of keys (null: everywhere). */
export type TargetedTerm = CompiledTerm & { subredditKeys: ReadonlySet<string> | null };

function targeted(terms: CompiledTerm[]): TargetedTerm[] {
  // Assigned onto the compiled term (not spread) so that its pattern stays compiled only when first read.
  return terms.map((t) =>
    Object.assign(t, {
      subredditKeys: t.subreddits && t.subreddits.length > 0 ? new Set(t.subreddits.map(subredditKey)) : null,
    }),
  );
}

/** What a workspace's decision reads: its active terms compiled, the score's signals, its exclusions. */
export interface WorkspaceRules {
  terms: TrackedTerm[];
  compiled: TargetedTerm[];
  signals: Map<number, KeywordSignal>;
  competitorNames: Map<number, string>;
  exclusions: CompiledExclusions;
}

/**
 * Whether the item is stored for the workspace, and with which matches. `hits`: the workspace's terms whose
 * pattern occurs in the item, when a compiled matcher found them already (they must come from
 * `rules.compiled`); left out, they are found here. In order: a term limited to subreddits counts only in
 * them (and gives no context elsewhere); an ambiguous term needs a non-ambiguous one beside it; nothing
 * counted is `no_match`; then an excluded subreddit, author or term keeps the item out.
 */
export function decideMatch(item: MatchItem, rules: WorkspaceRules, hits?: readonly TargetedTerm[]): Decision {
  const found = hits ?? termHits(item, rules.compiled);
  const here = subredditKey(item.subreddit);
  const match = countedMatch(found.filter((t) => t.subredditKeys === null || t.subredditKeys.has(here)));
  if (!matchedAnything(match)) return { stored: false, reason: "no_match" };
  const excluded = excludedBy(item, rules.exclusions);
  if (excluded) return { stored: false, ...excluded };
  return { stored: true, match };
}

/** The rules of a workspace from its active terms and exclusions. */
export function trackedTerms(
  kws: ActiveKeyword[],
  comps: ActiveCompetitor[],
  exclusions: Exclusions = NO_EXCLUSIONS,
): WorkspaceRules {
  const terms: TrackedTerm[] = [
    ...kws.map((k) => ({
      kind: "keyword" as const,
      id: k.id,
      text: k.keyword,
      ambiguous: k.isAmbiguous,
      subreddits: k.subreddits ?? [],
    })),
    ...comps.flatMap((c) =>
      [c.name, ...c.keywords].map((text) => ({
        kind: "competitor" as const,
        id: c.id,
        text,
        ambiguous: c.isAmbiguous,
        subreddits: c.subreddits ?? [],
      })),
    ),
  ];
  const signals = new Map<number, KeywordSignal>(
    kws.map((k) => [
      k.id,
      {
        text: k.keyword,
        searchVolume: k.searchVolume,
        cpc: k.cpc === null ? null : Number.parseFloat(k.cpc),
        serpForumPosition: k.serpForumPosition,
        serpForumUrl: k.serpForumUrl,
      },
    ]),
  );
  const competitorNames = new Map(comps.map((c) => [c.id, c.name]));
  return {
    terms,
    compiled: targeted(compileTerms(terms)),
    signals,
    competitorNames,
    exclusions: compileExclusions(exclusions),
  };
}

type ScoreRules = Pick<WorkspaceRules, "signals" | "competitorNames">;

const signalsOf = (match: MatchResult, rules: ScoreRules) => ({
  keywords: match.keywordIds.map((id) => rules.signals.get(id)).filter((k): k is KeywordSignal => !!k),
  competitors: match.competitorIds.map((id) => rules.competitorNames.get(id) ?? String(id)),
});

/**
 * Matches and scores one post; null when it is not stored for the workspace (no match, or excluded).
 * `subreddit` and `author` left out (a caller that has only the text) skip the subreddit rules.
 */
export function ingestLink(
  link: {
    title: string;
    selftext: string;
    permalink: string;
    score: number;
    numComments: number;
    createdUtc: string;
    subreddit?: string;
    author?: string;
  },
  rules: WorkspaceRules,
  now: number,
): { match: MatchResult; scored: ScoreResult } | null {
  const item = { subreddit: link.subreddit ?? "", author: link.author ?? "", title: link.title, body: link.selftext };
  const decision = decideMatch(item, rules);
  if (!decision.stored) return null;
  return { match: decision.match, scored: scoreMatchedPost(link, decision.match, rules, now) };
}

/** Scores a post already decided to be stored with `match`. */
export function scoreMatchedPost(
  link: { title: string; selftext: string; permalink: string; score: number; numComments: number; createdUtc: string },
  match: MatchResult,
  rules: ScoreRules,
  now: number,
): ScoreResult {
  return scorePost({ ...link, ...signalsOf(match, rules) }, now);
}

/** The thread's permalink from a comment's (`/r/x/comments/<post>/<slug>/<comment>/` → `/r/x/comments/<post>/<slug>/`). */
export const threadPermalinkOf = (commentPermalink: string) => commentPermalink.replace(/[^/]+\/?$/, "");

/** Scores a comment already decided to be stored with `match` (docs/monitoring.md, "Score of a comment"). */
export function scoreMatchedComment(
  comment: { body: string; permalink: string; score: number; createdUtc: string },
  match: MatchResult,
  rules: ScoreRules,
  now: number,
): ScoreResult {
  return scoreComment(
    { ...comment, threadPermalink: threadPermalinkOf(comment.permalink), ...signalsOf(match, rules) },
    now,
  );
}
