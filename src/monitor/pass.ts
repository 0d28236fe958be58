// A backfill of a workspace (docs/monitoring.md, "Backfill"): its new or changed terms (or all of them, on
// POST /actions/monitoring/run) searched once over the last seven days, OR-batched, every page to the end, and
// what matches stored. New posts come from the ingester (src/durable/forum-ingester.ts); this only fills the
// week a term did not exist for. Also the store/score path every ingestion shares (linkFields, postRow).
import { alertNewPosts } from "../alerts/post-alerts";
import type { WorkspaceDb } from "../db/client";
import { type IngestedPost, upsertForumPosts } from "../db/matched-items";
import {
  activeTerms,
  backfilledTerms,
  claimMonitorRun,
  finishMonitorRun,
  type MonitorRunCounts,
  type MonitorRunView,
  type MonitorTrigger,
  markBackfilled,
} from "../db/monitor";
import type { Env } from "../env";
import {
  ForumApi,
  type ForumApiConfig,
  ForumApiError,
  type ForumLink,
  forumApiConfig,
  QuotaExhausted,
} from "../forum/app-client";
import { threadUrl } from "../forum/thread-url";
import { DomainError, invalidState } from "../lib/domain-errors";
import { log, messageOf } from "../lib/log";
import { ingestLink, trackedTerms, type WorkspaceRules } from "./decide";
import { type RefreshEntry, scheduleRefresh } from "./ingester";
import { type MatchResult, type TrackedTerm, termKey } from "./match";
import type { ScoreResult } from "./score";
import { batchQueries } from "./search-queries";
import { trackedTermsChanged } from "./term-changes";

/** Pages a query reads in one scan at most (the forum's search stops at about 250 results: 3 pages). */
export const MAX_PAGES = 10;
/** Posts older than this are never stored. */
export const MAX_AGE_MS = 7 * 24 * 3_600_000;
/** How long a backfill may take by default (waiting for the quota included) before it stops as `partial`. */
export const DEFAULT_BUDGET_MS = 25_000;
/**
 * A running backfill whose Worker is gone stops blocking the next one this long after its deadline (at least
 * 5 minutes after its start): a lease shorter than a long configured budget let a second run of the workspace
 * start beside a live one.
 */
const LEASE_MS = 5 * 60_000;
const LEASE_PAST_DEADLINE_MS = 60_000;

export interface PassOptions {
  trigger: MonitorTrigger;
  /** Only the terms no backfill searched yet (a term was created or changed); default all active terms. */
  onlyNew?: boolean;
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

// The workspace's rules and the one match decision live in decide.ts; a backfill, the ingester, refresh and
// re-match all use them.
export { ingestLink, trackedTerms } from "./decide";

type Tracked = WorkspaceRules;

// Whole seconds, as the forum gives them (`1489294607.0`): the full-text index keys a post by its second and
// id, which is then exactly the listing's order (migration 0066, docs/scaling.md).
const createdIso = (link: ForumLink) => new Date(Math.floor(link.created_utc) * 1000).toISOString();

/** The fields of a link that the score and the matcher read. */
export const linkFields = (link: ForumLink) => ({
  title: link.title,
  selftext: link.selftext ?? "",
  permalink: link.permalink,
  score: link.score,
  numComments: link.num_comments,
  createdUtc: createdIso(link),
});

// The forum names a removed account "[deleted]"; an author it leaves out entirely is written the same way.
export const authorOf = (link: { author?: string | null }) => link.author ?? "[deleted]";

/** The row stored for a link the workspace decided to store with `result`'s matches and score. */
export function postRow(link: ForumLink, result: { match: MatchResult; scored: ScoreResult }): IngestedPost {
  return {
    ...linkFields(link),
    forumId: link.id,
    subreddit: link.subreddit,
    author: authorOf(link),
    url: link.url ?? threadUrl(link.permalink),
    priority: result.scored.priority,
    urgency: result.scored.urgency,
    scoreReasons: result.scored.reasons,
    keywordIds: result.match.keywordIds,
    competitorIds: result.match.competitorIds,
  };
}

function toPost(link: ForumLink, tracked: Tracked, now: number): IngestedPost | null {
  const result = ingestLink({ ...linkFields(link), subreddit: link.subreddit, author: authorOf(link) }, tracked, now);
  return result ? postRow(link, result) : null;
}

class Pass {
  readonly counts: MonitorRunCounts = { requests: 0, queries: 0, fetched: 0, matched: 0, created: 0, updated: 0 };
  /** Posts already stored by this pass (the same post is found by several queries). */
  private readonly done = new Set<string>();
  /** The stored posts, for the ingester's refresh schedule (they are re-read as the walk's are). */
  readonly stored: RefreshEntry[] = [];

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
    for (const r of rows)
      this.stored.push({
        kind: "t3",
        id: r.forumId,
        createdMs: Date.parse(r.createdUtc),
        stage: 0,
        workspaces: [this.w.workspaceId],
      });
    this.counts.created += created;
    this.counts.updated += updated;
  }

  /** Reads a query's pages over the last seven days, newest first, to the last page (or the tenth). */
  async scan(query: string): Promise<void> {
    let after: string | null = null;
    const oldest = this.now - MAX_AGE_MS;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await this.api.search(query, after, true);
      const fresh = page.links.filter((link) => link.created_utc * 1000 >= oldest);
      await this.store(fresh);
      after = page.after;
      if (!after || fresh.length < page.links.length) break;
    }
  }
}

/**
 * Queues the alerts of posts just stored (writes and a queue message; no receiver is waited for). A failure
 * here is logged and does not stop ingestion.
 */
export async function announceNewPosts(env: Env, w: WorkspaceDb, forumIds: string[]): Promise<void> {
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

/** The normalized texts of the terms a backfill searches: all of them, or those no backfill searched yet. */
async function termsToSearch(w: WorkspaceDb, terms: TrackedTerm[], onlyNew: boolean): Promise<string[]> {
  const searched = onlyNew ? await backfilledTerms(w) : new Set<string>();
  return [...new Set(terms.map((t) => termKey(t.text)))].filter((k) => k && !searched.has(k));
}

/** Whether the workspace has active terms that no backfill searched yet. */
export async function hasNewTerms(w: WorkspaceDb): Promise<boolean> {
  const { keywords, competitors } = await activeTerms(w);
  return (await termsToSearch(w, trackedTerms(keywords, competitors).terms, true)).length > 0;
}

/**
 * Runs one backfill for the workspace now. 409 `run_in_progress` while another pass of it runs; `invalid_state`
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
    const wanted = await termsToSearch(w, tracked.terms, options.onlyNew === true);
    const queries = batchQueries(wanted);
    const api = new ForumApi(env, config, {
      deadline,
      now,
      onRequest: () => {
        if (pass) pass.counts.requests++;
      },
    });
    pass = new Pass(w, api, tracked, started, (forumIds) => announceNewPosts(env, w, forumIds));
    pass.counts.queries = queries.length;
    for (const query of queries) await pass.scan(query);
    await markBackfilled(w, wanted);
    return await finishMonitorRun(w, runId, "completed", counts(), null);
  } catch (err) {
    if (err instanceof QuotaExhausted) {
      const why = `${err.message}; the terms not searched are searched by the next run`;
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
        `the time budget ran out (${shown}); the terms not searched are searched by the next run`,
      );
    return finishMonitorRun(w, runId, "failed", counts(), shown);
  } finally {
    const { created, updated } = counts();
    if (pass && pass.stored.length > 0) await scheduleRefresh(env, config, pass.stored, now());
    if (tracked && created + updated > 0) await rematchIfTermsChanged(env, w, usedRules);
  }
}
