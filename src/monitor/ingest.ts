// One round of the ingester (docs/monitoring.md, "The ingester"): the post walk, the comment walk and the
// refresh of young stored items, for every workspace at once. The state lives in the ingester's Durable Object
// (src/durable/forum-ingester.ts); this reads and changes it, asks the forum and stores what matches.
import { workspaceDb } from "../db/client";
import { allActiveTerms, termsVersion } from "../db/ingest";
import { type FieldsRow, type IngestedPost, refreshForumFields, upsertPostsOfWorkspaces } from "../db/matched-items";
import { workspacesWithActiveWebhooks } from "../db/webhooks";
import type { Env } from "../env";
import { ForumApi, type ForumApiConfig, type ForumComment, type ForumLink, INFO_IDS } from "../forum/app-client";
import { log, messageOf } from "../lib/log";
import { storeCommentsOfWorkspaces, type WorkspaceComments } from "./comments";
import { scoreMatchedPost } from "./decide";
import type { ItemKind } from "./forum-ids";
import { IngestMatcher, type WorkspaceMatch } from "./ingest-matcher";
import type { RefreshEntry } from "./ingester";
import { announceNewPosts, authorOf, linkFields, MAX_AGE_MS, postRow } from "./pass";
import { type RoundClock, type WalkState, walkRound } from "./walk";

/** Stored items are re-read at about these ages, then no more (the last one at 72 hours). */
export const REFRESH_AGES_MS = [3_600_000, 6 * 3_600_000, 24 * 3_600_000, 72 * 3_600_000] as const;
/** The post walk's requests a minute at most (the forum's peak needs about 16, retries included). */
export const POST_BUDGET_PER_MINUTE = 20;
/** The comment walk's default budget (MONITOR_COMMENT_BUDGET). */
export const DEFAULT_COMMENT_BUDGET = 40;
/** Refresh requests a round at most (100 stored items each). */
const REFRESH_REQUESTS_PER_ROUND = 5;

export type { RefreshEntry };

/** What the round asks of the ingester's storage. */
export interface IngestStore {
  walk(kind: ItemKind): WalkState;
  saveWalk(kind: ItemKind, state: WalkState): void;
  /** Items stored for workspaces: each is re-read at the ages above (the workspaces merged when known). */
  stored(entries: RefreshEntry[], now: number): void;
  dueRefresh(now: number, limit: number): RefreshEntry[];
  refreshed(entry: RefreshEntry, now: number): void;
}

export interface RoundOptions extends RoundClock {
  config: ForumApiConfig;
  /** Seconds between rounds (the API client's deadline); the walks' budgets are per any 60 seconds. */
  intervalS: number;
  commentBudget: number;
  matchers: MatcherCache;
}

export interface RoundCounts {
  requests: number;
  posts: number;
  comments: number;
  stored: number;
  refreshed: number;
}

/**
 * The compiled matcher, kept while the terms' version stays the same. One per ingester, not one per isolate:
 * databases emptied and migrated again (as the tests do between files) count from 0 again, so the same
 * number can name other terms for an ingester that never saw the old ones.
 */
export class MatcherCache {
  private cached: { version: number; matcher: IngestMatcher } | null = null;

  async current(env: Env): Promise<IngestMatcher> {
    const version = await termsVersion(env);
    if (this.cached?.version !== version)
      this.cached = { version, matcher: new IngestMatcher(await allActiveTerms(env)) };
    return this.cached.matcher;
  }
}

/** A link as the decision reads it. */
const linkItem = (link: ForumLink) => ({
  subreddit: link.subreddit,
  author: authorOf(link),
  title: link.title,
  body: link.selftext ?? "",
});

/** The row a workspace stores for a link it matched, scored with its own signals. */
const rowOf = (link: ForumLink, m: WorkspaceMatch, now: number) =>
  postRow(link, { match: m.match, scored: scoreMatchedPost(linkFields(link), m.match, m.rules, now) });

/** Each workspace's list in `byWorkspace`, made for the first item it gets. */
function listOf<T>(byWorkspace: Map<number, T[]>, workspaceId: number): T[] {
  let list = byWorkspace.get(workspaceId);
  if (!list) {
    list = [];
    byWorkspace.set(workspaceId, list);
  }
  return list;
}

/**
 * Stores the links each workspace matched, every workspace's in shared batches (upsertPostsOfWorkspaces), and
 * announces the new ones to the workspaces that have a webhook.
 */
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
    const found = matcher.match(linkItem(link));
    if (found.length === 0) continue;
    for (const m of found) listOf(byWorkspace, m.workspaceId).push(rowOf(link, m, now));
    entries.push({
      kind: "t3",
      id: link.id,
      createdMs: link.created_utc * 1000,
      stage: 0,
      workspaces: found.map((m) => m.workspaceId),
    });
  }
  if (byWorkspace.size === 0) return { stored: 0, entries };
  const sets = [...byWorkspace].map(([id, rows]) => ({ w: workspaceDb(env, id), rows }));
  const hooked = await workspacesWithActiveWebhooks(sets.map((s) => s.w));
  const { created, updated } = await upsertPostsOfWorkspaces(sets, async (w, forumIds) => {
    if (hooked.has(w.workspaceId)) await announceNewPosts(env, w, forumIds);
  });
  return { stored: created + updated, entries };
}

/**
 * The titles of the comments' threads (/api/info gives a comment no `link_title`): their posts read in one
 * request of up to 100. Unreadable, none: the comment store falls back to a stored post's title.
 */
async function threadTitles(api: ForumApi, comments: ForumComment[]): Promise<Map<string, string>> {
  const wanted = [...new Set(comments.filter((c) => !c.link_title).map((c) => c.link_id))].slice(0, INFO_IDS);
  if (wanted.length === 0) return new Map();
  try {
    const { links } = await api.infoItems(wanted);
    return new Map(links.map((l) => [l.name, l.title]));
  } catch (err) {
    log("warn", "thread titles of matched comments not read", { threads: wanted.length, error: messageOf(err) });
    return new Map();
  }
}

/** Decides comments (their body) for every workspace and stores each workspace's, with its thread's title. */
async function storeComments(
  env: Env,
  api: ForumApi,
  matcher: IngestMatcher,
  comments: ForumComment[],
  now: number,
): Promise<{ stored: number; entries: RefreshEntry[] }> {
  const byWorkspace = new Map<number, { m: WorkspaceMatch; comment: ForumComment }[]>();
  const entries: RefreshEntry[] = [];
  for (const c of comments) {
    if (c.created_utc * 1000 < now - MAX_AGE_MS) continue;
    const found = matcher.match({ subreddit: c.subreddit, author: authorOf(c), title: "", body: c.body });
    for (const m of found) listOf(byWorkspace, m.workspaceId).push({ m, comment: c });
    if (found.length > 0)
      entries.push({
        kind: "t1",
        id: c.id,
        createdMs: c.created_utc * 1000,
        stage: 0,
        workspaces: found.map((m) => m.workspaceId),
      });
  }
  if (byWorkspace.size === 0) return { stored: 0, entries };
  const titles = await threadTitles(
    api,
    [...byWorkspace.values()].flatMap((l) => l.map((i) => i.comment)),
  );
  const sets: WorkspaceComments[] = [...byWorkspace].map(([workspaceId, list]) => ({
    w: workspaceDb(env, workspaceId),
    rules: list[0]!.m.rules,
    items: list.map(({ m, comment }) => ({
      comment,
      match: m.match,
      threadTitle: comment.link_title ?? titles.get(comment.link_id),
    })),
  }));
  const { created, updated } = await storeCommentsOfWorkspaces(env, sets, now);
  return { stored: created + updated, entries };
}

/**
 * What one refresh request changes, by workspace: items that still match are stored again (score, matches,
 * fields); items that no longer match (a removed comment's "[removed]" body) change only their forum fields and
 * keep their links (re-matching after a term change is what drops them). Written together by `flush`.
 */
class RefreshWrites {
  private readonly posts = new Map<number, IngestedPost[]>();
  private readonly postFields = new Map<number, FieldsRow<"posts">[]>();
  private readonly comments = new Map<number, { m: WorkspaceMatch; comment: ForumComment }[]>();
  private readonly commentFields = new Map<number, FieldsRow<"comments">[]>();

  constructor(
    private readonly matcher: IngestMatcher,
    private readonly now: number,
  ) {}

  link(link: ForumLink, workspaces: number[]): void {
    const found = new Map(this.matcher.match(linkItem(link)).map((m) => [m.workspaceId, m]));
    const f = linkFields(link);
    const values = { title: f.title, selftext: f.selftext, score: f.score, num_comments: f.numComments };
    for (const workspaceId of workspaces) {
      const m = found.get(workspaceId);
      if (m) listOf(this.posts, workspaceId).push(rowOf(link, m, this.now));
      else listOf(this.postFields, workspaceId).push({ forumId: link.id, values });
    }
  }

  comment(comment: ForumComment, workspaces: number[]): void {
    const item = { subreddit: comment.subreddit, author: authorOf(comment), title: "", body: comment.body };
    const found = new Map(this.matcher.match(item).map((m) => [m.workspaceId, m]));
    for (const workspaceId of workspaces) {
      const m = found.get(workspaceId);
      if (m) listOf(this.comments, workspaceId).push({ m, comment });
      else
        listOf(this.commentFields, workspaceId).push({
          forumId: comment.id,
          values: { body: comment.body ?? "", score: comment.score },
        });
    }
  }

  /** Writes it all, every workspace's in shared batches; the number of stored items changed. */
  async flush(env: Env): Promise<number> {
    const sets = <T>(byWorkspace: Map<number, T[]>) =>
      [...byWorkspace].map(([id, rows]) => ({ w: workspaceDb(env, id), rows }));
    const commentSets: WorkspaceComments[] = [...this.comments].map(([id, list]) => ({
      w: workspaceDb(env, id),
      rules: list[0]!.m.rules,
      items: list.map(({ m, comment }) => ({ comment, match: m.match })),
      stored: true,
    }));
    const posts = await upsertPostsOfWorkspaces(sets(this.posts));
    const comments = await storeCommentsOfWorkspaces(env, commentSets, this.now);
    return (
      posts.updated +
      comments.updated +
      (await refreshForumFields("posts", sets(this.postFields))) +
      (await refreshForumFields("comments", sets(this.commentFields)))
    );
  }
}

/**
 * Re-reads stored posts and comments due for a refresh, once for every workspace that stores them (up to 100
 * items a request, both kinds mixed as /api/info takes them). An entry is marked refreshed once its writes are.
 */
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
    const due = store.dueRefresh(now, INFO_IDS);
    if (due.length === 0) break;
    const { links, comments } = await api.infoItems(due.map((e) => `${e.kind}_${e.id}`));
    const linkById = new Map(links.map((l) => [l.id, l]));
    const commentById = new Map(comments.map((c) => [c.id, c]));
    const writes = new RefreshWrites(matcher, now);
    for (const entry of due) {
      const link = entry.kind === "t3" ? linkById.get(entry.id) : undefined;
      const comment = entry.kind === "t1" ? commentById.get(entry.id) : undefined;
      if (link) writes.link(link, entry.workspaces);
      if (comment) writes.comment(comment, entry.workspaces);
    }
    refreshed += await writes.flush(env);
    for (const entry of due) store.refreshed(entry, now);
  }
  return { requests, refreshed };
}

/** One round: posts, comments, then refreshes, each within its share of the quota. */
export async function ingestRound(env: Env, store: IngestStore, options: RoundOptions): Promise<RoundCounts> {
  const counts: RoundCounts = { requests: 0, posts: 0, comments: 0, stored: 0, refreshed: 0 };
  const started = options.now();
  // The walk whose request the API client is sending now hears of it (its budget counts it as sent).
  let onSend: (() => void) | null = null;
  const sending = async <T>(sent: () => void, call: () => Promise<T>): Promise<T> => {
    onSend = sent;
    try {
      return await call();
    } finally {
      onSend = null;
    }
  };
  const api = new ForumApi(env, options.config, {
    deadline: started + Math.max(10_000, options.intervalS * 900),
    now: options.now,
    onRequest: () => {
      counts.requests++;
      onSend?.();
    },
  });
  const matcher = await options.matchers.current(env);
  const pending: RefreshEntry[] = [];
  const forum = (kind: ItemKind) => ({
    newest: async (_kind: ItemKind, sent: () => void) => {
      const page = await sending(sent, () => api.newest(kind));
      return kind === "t3" ? page.links.map((l) => l.name) : page.comments.map((c) => c.name);
    },
    info: async (names: string[], sent: () => void) => {
      const { links, comments } = await sending(sent, () => api.infoItems(names));
      const now = options.now();
      if (kind === "t3") {
        counts.posts += links.length;
        const { stored, entries } = await storeLinks(env, matcher, links, now);
        counts.stored += stored;
        pending.push(...entries);
        return links.map((l) => l.name);
      }
      counts.comments += comments.length;
      const { stored, entries } = await storeComments(env, api, matcher, comments, now);
      counts.stored += stored;
      pending.push(...entries);
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
      await walkRound(state, kind, forum(kind), { perMinute, now: options.now, wait: options.wait });
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
