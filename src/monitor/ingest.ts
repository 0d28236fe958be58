// One round of the ingester (docs/monitoring.md, "The ingester"): the post walk, the comment walk and the
// refresh of young stored items, for every workspace at once. The state lives in the ingester's Durable Object
// (src/durable/forum-ingester.ts); this reads and changes it, asks the forum and stores what matches.
import { workspaceDb } from "../db/client";
import { allActiveTerms, termsVersion } from "../db/ingest";
import { type IngestedPost, refreshForumPostCounts, upsertForumPosts } from "../db/monitor";
import type { Env } from "../env";
import { ForumApi, type ForumApiConfig, type ForumComment, type ForumLink } from "../forum/app-client";
import { log, messageOf } from "../lib/log";
import { storeMatchedComments } from "./comment-seam";
import type { ItemKind } from "./forum-ids";
import { IngestMatcher } from "./ingest-matcher";
import { announceNewPosts, linkFields, MAX_AGE_MS, postRow } from "./pass";
import { type WalkState, walkRound } from "./walk";

/** Stored items are re-read at about these ages, then no more (the last one at 72 hours). */
export const REFRESH_AGES_MS = [3_600_000, 6 * 3_600_000, 24 * 3_600_000, 72 * 3_600_000] as const;
/** The post walk's requests a minute at most (the forum's peak needs about 16, retries included). */
export const POST_BUDGET_PER_MINUTE = 20;
/** The comment walk's default budget (MONITOR_COMMENT_BUDGET). */
export const DEFAULT_COMMENT_BUDGET = 40;
/** Refresh requests a round at most (100 stored items each). */
const REFRESH_REQUESTS_PER_ROUND = 5;

/** A stored item due for its next re-read, and which workspaces store it. */
export interface RefreshEntry {
  kind: ItemKind;
  id: string;
  createdMs: number;
  stage: number;
  workspaces: number[];
}

/** What the round asks of the ingester's storage. */
export interface IngestStore {
  walk(kind: ItemKind): WalkState;
  saveWalk(kind: ItemKind, state: WalkState): void;
  /** Items stored for workspaces: each is re-read at the ages above (the workspaces merged when known). */
  stored(entries: RefreshEntry[], now: number): void;
  dueRefresh(now: number, limit: number): RefreshEntry[];
  refreshed(entry: RefreshEntry, now: number): void;
}

export interface RoundOptions {
  config: ForumApiConfig;
  now: () => number;
  /** Seconds between rounds: the walks' budgets are per minute, so a round spends its share. */
  intervalS: number;
  commentBudget: number;
}

export interface RoundCounts {
  requests: number;
  posts: number;
  comments: number;
  stored: number;
  refreshed: number;
}

/** The compiled matcher, kept while the terms' version stays the same. */
let cached: { version: number; matcher: IngestMatcher } | null = null;

export async function currentMatcher(env: Env): Promise<IngestMatcher> {
  const version = await termsVersion(env);
  if (cached?.version !== version) cached = { version, matcher: new IngestMatcher(await allActiveTerms(env)) };
  return cached.matcher;
}

const perRound = (perMinute: number, intervalS: number) => Math.max(2, Math.floor((perMinute * intervalS) / 60));

/** Stores the links each workspace matched (one batch a workspace) and announces the new ones. */
async function storeLinks(
  env: Env,
  matcher: IngestMatcher,
  links: ForumLink[],
  now: number,
): Promise<{ stored: number; entries: RefreshEntry[] }> {
  const byWorkspace = new Map<number, IngestedPost[]>();
  const entries: RefreshEntry[] = [];
  for (const link of links) {
    if (link.created_utc * 1000 < now - MAX_AGE_MS) continue;
    const found = matcher.match(linkFields(link), now);
    if (found.length === 0) continue;
    for (const m of found) {
      const rows = byWorkspace.get(m.workspaceId) ?? [];
      rows.push(postRow(link, { match: m.match, scored: m.scored }));
      byWorkspace.set(m.workspaceId, rows);
    }
    entries.push({
      kind: "t3",
      id: link.id,
      createdMs: link.created_utc * 1000,
      stage: 0,
      workspaces: found.map((m) => m.workspaceId),
    });
  }
  let stored = 0;
  for (const [workspaceId, rows] of byWorkspace) {
    const w = workspaceDb(env, workspaceId);
    await upsertForumPosts(w, rows, (forumIds) => announceNewPosts(env, w, forumIds));
    stored += rows.length;
  }
  return { stored, entries };
}

/** Matches comments (their body) for every workspace and hands each workspace's to the comment store. */
async function storeComments(env: Env, matcher: IngestMatcher, comments: ForumComment[], now: number): Promise<number> {
  const byWorkspace = new Map<number, { comment: ForumComment; match: ReturnType<IngestMatcher["match"]>[0] }[]>();
  for (const c of comments) {
    if (c.created_utc * 1000 < now - MAX_AGE_MS) continue;
    const fields = {
      title: "",
      selftext: c.body,
      permalink: c.permalink,
      score: c.score,
      numComments: 0,
      createdUtc: new Date(Math.floor(c.created_utc) * 1000).toISOString(),
    };
    for (const m of matcher.match(fields, now)) {
      const list = byWorkspace.get(m.workspaceId) ?? [];
      list.push({ comment: c, match: m });
      byWorkspace.set(m.workspaceId, list);
    }
  }
  let stored = 0;
  for (const [workspaceId, list] of byWorkspace) stored += await storeMatchedComments(env, workspaceId, list);
  return stored;
}

/** Re-reads stored posts due for a refresh, once for every workspace that stores them. */
async function refresh(
  env: Env,
  api: ForumApi,
  matcher: IngestMatcher,
  store: IngestStore,
  now: number,
): Promise<{ requests: number; refreshed: number }> {
  let requests = 0;
  let refreshed = 0;
  for (; requests < REFRESH_REQUESTS_PER_ROUND; requests++) {
    const due = store.dueRefresh(now, 100).filter((e) => e.kind === "t3");
    if (due.length === 0) break;
    const { links } = await api.infoItems(due.map((e) => `t3_${e.id}`));
    const byId = new Map(links.map((l) => [l.id, l]));
    for (const entry of due) {
      const link = byId.get(entry.id);
      if (link) refreshed += await refreshLink(env, matcher, link, entry.workspaces, now);
      store.refreshed(entry, now);
    }
  }
  return { requests, refreshed };
}

/** One re-read post: matches and score recomputed where it still matches; elsewhere only its numbers and text. */
async function refreshLink(
  env: Env,
  matcher: IngestMatcher,
  link: ForumLink,
  workspaces: number[],
  now: number,
): Promise<number> {
  const found = new Map(matcher.match(linkFields(link), now).map((m) => [m.workspaceId, m]));
  let updated = 0;
  for (const workspaceId of workspaces) {
    const w = workspaceDb(env, workspaceId);
    const m = found.get(workspaceId);
    if (m) updated += (await upsertForumPosts(w, [postRow(link, { match: m.match, scored: m.scored })])).updated;
    else {
      const f = linkFields(link);
      updated += await refreshForumPostCounts(w, [{ forumId: link.id, ...f }]);
    }
  }
  return updated;
}

/** One round: posts, comments, then refreshes, each within its share of the quota. */
export async function ingestRound(env: Env, store: IngestStore, options: RoundOptions): Promise<RoundCounts> {
  const counts: RoundCounts = { requests: 0, posts: 0, comments: 0, stored: 0, refreshed: 0 };
  const started = options.now();
  const api = new ForumApi(env, options.config, {
    deadline: started + Math.max(10_000, options.intervalS * 900),
    now: options.now,
    onRequest: () => {
      counts.requests++;
    },
  });
  const matcher = await currentMatcher(env);
  const pending: RefreshEntry[] = [];
  const forum = (kind: ItemKind) => ({
    newest: async () => {
      const page = await api.newest(kind);
      return kind === "t3" ? page.links.map((l) => l.name) : page.comments.map((c) => c.name);
    },
    info: async (names: string[]) => {
      const { links, comments } = await api.infoItems(names);
      const now = options.now();
      if (kind === "t3") {
        counts.posts += links.length;
        const { stored, entries } = await storeLinks(env, matcher, links, now);
        counts.stored += stored;
        pending.push(...entries);
        return links.map((l) => l.name);
      }
      counts.comments += comments.length;
      counts.stored += await storeComments(env, matcher, comments, now);
      return comments.map((c) => c.name);
    },
  });
  for (const [kind, perMinute] of [
    ["t3", POST_BUDGET_PER_MINUTE],
    ["t1", options.commentBudget],
  ] as const) {
    if (perMinute <= 0) continue;
    const state = store.walk(kind);
    try {
      await walkRound(state, kind, forum(kind), perRound(perMinute, options.intervalS), options.now());
    } catch (err) {
      log("warn", "ingest walk stopped", { kind, error: messageOf(err) });
    } finally {
      store.saveWalk(kind, state);
      store.stored(pending.splice(0), options.now());
    }
  }
  try {
    const r = await refresh(env, api, matcher, store, options.now());
    counts.refreshed += r.refreshed;
  } catch (err) {
    log("warn", "ingest refresh stopped", { error: messageOf(err) });
  }
  return counts;
}
