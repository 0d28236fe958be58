// One monitoring pass of a workspace (docs/monitoring.md, "Passes"): resume the queries a partial pass left, search
// every query for new posts until the posts seen last time, refresh young posts, and store what matches.
import { alertNewPosts } from "../alerts/post-alerts";
import type { WorkspaceDb } from "../db/client";
import {
  activeTerms,
  claimMonitorRun,
  deleteCursorsExcept,
  finishMonitorRun,
  type IngestedPost,
  loadCursors,
  type MonitorCursorRow,
  type MonitorRunCounts,
  type MonitorRunView,
  type MonitorTrigger,
  refreshForumPostCounts,
  saveCursor,
  upsertForumPosts,
  youngForumIds,
} from "../db/monitor";
import type { Env } from "../env";
import {
  ForumApi,
  type ForumApiConfig,
  ForumApiError,
  type ForumLink,
  forumApiConfig,
  INFO_IDS,
  QuotaExhausted,
} from "../forum/app-client";
import { threadUrl } from "../forum/thread-url";
import { DomainError, invalidState } from "../lib/domain-errors";
import { log, messageOf } from "../lib/log";
import { ingestLink, trackedTerms, type WorkspaceRules } from "./decide";
import { batchQueries } from "./search-queries";
import { trackedTermsChanged } from "./term-changes";

/** Pages a query reads in one scan at most. */
export const MAX_PAGES = 10;
/** Posts older than this are never stored. */
export const MAX_AGE_MS = 7 * 24 * 3_600_000;
/** Stored posts younger than this get their score and comments refreshed every pass. */
export const REFRESH_AGE_MS = 3 * 24 * 3_600_000;
/** Full names of the newest posts a finished scan remembers, to know where the next scan stops. */
const SEEN_KEPT = 5;
/** How long a pass may take by default (waiting for the quota included) before it stops as `partial`. */
export const DEFAULT_BUDGET_MS = 25_000;
/**
 * A running pass whose Worker is gone stops blocking the next one this long after its deadline (at least 5
 * minutes after its start): a lease shorter than a long configured budget let a second pass of the workspace
 * start beside a live one.
 */
const LEASE_MS = 5 * 60_000;
const LEASE_PAST_DEADLINE_MS = 60_000;

export interface PassOptions {
  trigger: MonitorTrigger;
  /** Time budget in ms (default MONITOR_PASS_BUDGET_MS or 25 s). */
  budgetMs?: number;
  /** Overrides the forum API settings of the environment (tests use one client id per scenario). */
  config?: ForumApiConfig;
  /** Where the pass reads the time (epoch ms; default the real clock): tests move it instead of sleeping. */
  now?: () => number;
}

export const monitoringEnabled = (env: Env) => forumApiConfig(env) !== null;

function budgetOf(env: Env, options: PassOptions): number {
  if (options.budgetMs !== undefined) return options.budgetMs;
  const configured = Number.parseInt(env.MONITOR_PASS_BUDGET_MS ?? "", 10);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_BUDGET_MS;
}

// The workspace's rules and the one match decision live in decide.ts; a pass, refresh and re-match all use them.
export { ingestLink, trackedTerms } from "./decide";

type Tracked = WorkspaceRules;

// Whole seconds, as the forum gives them (`1489294607.0`): the full-text index keys a post by its second and
// id, which is then exactly the listing's order (migration 0066, docs/scaling.md).
const createdIso = (link: ForumLink) => new Date(Math.floor(link.created_utc) * 1000).toISOString();

function toPost(link: ForumLink, tracked: Tracked, now: number): IngestedPost | null {
  const fields = {
    title: link.title,
    selftext: link.selftext ?? "",
    permalink: link.permalink,
    score: link.score,
    numComments: link.num_comments,
    createdUtc: createdIso(link),
  };
  // The forum names a removed account "[deleted]"; an author it leaves out entirely is written the same way.
  const author = link.author ?? "[deleted]";
  const result = ingestLink({ ...fields, subreddit: link.subreddit, author }, tracked, now);
  if (!result) return null;
  return {
    ...fields,
    forumId: link.id,
    subreddit: link.subreddit,
    author,
    url: link.url ?? threadUrl(link.permalink),
    priority: result.scored.priority,
    urgency: result.scored.urgency,
    scoreReasons: result.scored.reasons,
    keywordIds: result.match.keywordIds,
    competitorIds: result.match.competitorIds,
  };
}

class Pass {
  readonly counts: MonitorRunCounts = { requests: 0, queries: 0, fetched: 0, matched: 0, created: 0, updated: 0 };
  /** Posts already stored by this pass (the same post is found by several queries). */
  private readonly done = new Set<string>();

  constructor(
    private readonly w: WorkspaceDb,
    private readonly api: ForumApi,
    private readonly tracked: Tracked,
    private readonly now: number,
    /** Posts stored for the first time (alerts: docs/alerts.md); never called for a re-seen post. */
    private readonly onCreated: (forumIds: string[]) => Promise<void> = async () => {},
  ) {}

  private async store(links: ForumLink[]): Promise<void> {
    const rows: IngestedPost[] = [];
    for (const link of links) {
      this.counts.fetched++;
      if (this.done.has(link.name)) continue;
      this.done.add(link.name);
      const post = toPost(link, this.tracked, this.now);
      if (!post) continue;
      this.counts.matched++;
      rows.push(post);
    }
    const { created, updated } = await upsertForumPosts(this.w, rows, this.onCreated);
    this.counts.created += created;
    this.counts.updated += updated;
  }

  /**
   * Reads a query's pages, newest first, until a post the last finished scan saw, a post older than seven
   * days, the last page or the tenth. Where it is after each page is saved, so a pass stopped by the quota
   * resumes there. `resume` continues an interrupted scan.
   */
  async scan(query: string, cursor: MonitorCursorRow | undefined, resume: boolean): Promise<void> {
    const stopAt = new Set(cursor?.seenIds ?? []);
    let after = resume ? (cursor?.resumeAfter ?? null) : null;
    let pages = resume ? (cursor?.resumePages ?? 0) : 0;
    let pending: string[] | null = resume ? (cursor?.pendingIds ?? null) : null;
    const first = cursor === undefined;
    const oldest = this.now - MAX_AGE_MS;
    while (pages < MAX_PAGES) {
      const page = await this.api.search(query, after, first);
      pages++;
      if (pending === null) pending = page.links.slice(0, SEEN_KEPT).map((l) => l.name);
      let reached = false;
      const fresh: ForumLink[] = [];
      for (const link of page.links) {
        if (stopAt.has(link.name) || link.created_utc * 1000 < oldest) {
          reached = true;
          break;
        }
        fresh.push(link);
      }
      await this.store(fresh);
      after = page.after;
      if (reached || !after || pages >= MAX_PAGES) break;
      await saveCursor(this.w, query, {
        seenIds: cursor?.seenIds ?? [],
        resumeAfter: after,
        resumePages: pages,
        pendingIds: pending,
      });
    }
    await saveCursor(this.w, query, {
      seenIds: pending && pending.length > 0 ? pending : (cursor?.seenIds ?? []),
      resumeAfter: null,
      resumePages: 0,
      pendingIds: null,
    });
  }

  /** Score and comments (and title, body) of stored posts younger than three days, 100 per request. */
  async refresh(): Promise<void> {
    const young = await youngForumIds(this.w, new Date(this.now - REFRESH_AGE_MS).toISOString());
    // Posts this pass just stored from a search are fresh already.
    const ids = young.map((id) => `t3_${id}`).filter((name) => !this.done.has(name));
    for (let i = 0; i < ids.length; i += INFO_IDS) {
      const links = await this.api.info(ids.slice(i, i + INFO_IDS));
      const rows: IngestedPost[] = [];
      const unmatched: { forumId: string; title: string; selftext: string; score: number; numComments: number }[] = [];
      for (const link of links) {
        const post = toPost(link, this.tracked, this.now);
        if (post) rows.push(post);
        else
          unmatched.push({
            forumId: link.id,
            title: link.title,
            selftext: link.selftext ?? "",
            score: link.score,
            numComments: link.num_comments,
          });
      }
      const { updated } = await upsertForumPosts(this.w, rows);
      this.counts.updated += updated + (await refreshForumPostCounts(this.w, unmatched));
    }
  }
}

/**
 * Queues the alerts of posts just stored (writes and a queue message; no receiver is waited for). A failure
 * here is logged and does not stop ingestion.
 */
async function announceNewPosts(env: Env, w: WorkspaceDb, forumIds: string[]): Promise<void> {
  try {
    await alertNewPosts(env, w, forumIds);
  } catch (err) {
    log("error", "alerts of new posts could not be queued", {
      workspaceId: w.workspaceId,
      posts: forumIds.length,
      error: messageOf(err),
    });
  }
}

/**
 * A pass matches what it stores against the terms it read when it started. When they changed meanwhile, the
 * re-match that change queued may have run already, and the pass's later writes (a re-seen or refreshed post is
 * re-linked) put the old matches back: the stored posts are re-matched once more, now that the pass is done.
 */
async function rematchIfTermsChanged(env: Env, w: WorkspaceDb, used: unknown): Promise<void> {
  try {
    const { keywords, competitors, exclusions } = await activeTerms(w);
    const now = trackedTerms(keywords, competitors, exclusions);
    if (JSON.stringify([now.terms, exclusions]) !== JSON.stringify(used)) await trackedTermsChanged(env, w.workspaceId);
  } catch (err) {
    log("error", "could not compare the tracked terms after a pass", {
      workspaceId: w.workspaceId,
      error: messageOf(err),
    });
  }
}

/**
 * Runs one pass for the workspace now. 409 `run_in_progress` while another pass of it runs; `invalid_state`
 * when monitoring is off (no client id).
 */
export async function runMonitorPass(env: Env, w: WorkspaceDb, options: PassOptions): Promise<MonitorRunView> {
  const config = options.config ?? forumApiConfig(env);
  if (!config) throw invalidState("monitoring is off: REDDIT_CLIENT_ID is not set (see docs/monitoring.md)");
  const now = options.now ?? Date.now;
  const started = now();
  const deadline = started + budgetOf(env, options);
  const leaseUntil = Math.max(started + LEASE_MS, deadline + LEASE_PAST_DEADLINE_MS);
  const runId = await claimMonitorRun(w, options.trigger, new Date(leaseUntil).toISOString());
  if (runId === null) throw new DomainError("run_in_progress", "a monitoring pass of this workspace is running");

  const counts = () => pass?.counts ?? { requests: 0, queries: 0, fetched: 0, matched: 0, created: 0, updated: 0 };
  let pass: Pass | undefined;
  let tracked: Tracked | undefined;
  let usedRules: unknown;
  try {
    const { keywords, competitors, exclusions } = await activeTerms(w);
    tracked = trackedTerms(keywords, competitors, exclusions);
    usedRules = [tracked.terms, exclusions];
    const queries = batchQueries(tracked.terms.map((t) => t.text));
    const api = new ForumApi(env, config, {
      deadline,
      now,
      onRequest: () => {
        if (pass) pass.counts.requests++;
      },
    });
    pass = new Pass(w, api, tracked, started, (forumIds) => announceNewPosts(env, w, forumIds));
    pass.counts.queries = queries.length;
    const cursors = await loadCursors(w);
    // A partial pass's unfinished scans come first, then every query from its newest posts.
    for (const query of queries) {
      const cursor = cursors.get(query);
      if (cursor?.resumeAfter) await pass.scan(query, cursor, true);
    }
    const after = await loadCursors(w);
    for (const query of queries) await pass.scan(query, after.get(query), false);
    await pass.refresh();
    await deleteCursorsExcept(w, queries);
    return await finishMonitorRun(w, runId, "completed", counts(), null);
  } catch (err) {
    if (err instanceof QuotaExhausted) {
      const why = `${err.message}; the next pass resumes where this one stopped`;
      return finishMonitorRun(w, runId, "partial", counts(), why);
    }
    // The forum's refusal is shown as it is (it says what to fix); anything else is ours, logged in full and
    // shown only as having happened: a run's error is in API answers, which never carry SQL or a stack.
    const forum = err instanceof ForumApiError;
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
    log(forum ? "warn" : "error", "monitoring pass failed", {
      workspaceId: w.workspaceId,
      runId,
      error: messageOf(err),
      cause,
    });
    const shown = forum ? err.message : `an unexpected error stopped the pass (logged with run id ${runId})`;
    if (now() > deadline)
      return finishMonitorRun(
        w,
        runId,
        "partial",
        counts(),
        `the time budget ran out (${shown}); the next pass resumes where this one stopped`,
      );
    return finishMonitorRun(w, runId, "failed", counts(), shown);
  } finally {
    const { created, updated } = counts();
    if (tracked && created + updated > 0) await rematchIfTermsChanged(env, w, usedRules);
  }
}
