// One sync run of a config: discovery → full-content extraction → rendering → write (docs/blog-sync.md). A dry run
// walks the same pipeline with a sink that writes nothing; a real run's sink asks the workspace
// coordinator before every write and queue message and stops at the first "the config changed".

import {
  type Discovery,
  discoverPosts,
  type FetchPolicy,
  fetchArticle,
  fitBody,
  imagesKept,
  type SourceKind,
  toRedditMarkdown,
  toRedditRichText,
} from "../articles";
import { getConfigRow, type SyncConfigRow } from "../db/blog-sync-configs";
import { findSyncedPostsByUrl, type SyncedPostRow, type SyncedPostState } from "../db/blog-sync-posts";
import { type FinalRunStatus, finishRun, insertRun, NO_COUNTS, type RunCounts } from "../db/blog-sync-runs";
import { nowIso, type WorkspaceDb } from "../db/client";
import { FETCHES_PER_MINUTE } from "../durable/fetch-budget";
import { coordinatorFor, type WorkspaceCoordinator } from "../durable/workspace-coordinator";
import type { Env } from "../env";
import { sha256Hex } from "../lib/crypto";
import { DomainError, notFound } from "../lib/domain-errors";
import { messageOf } from "../lib/log";
import { fetchPolicy } from "./config-rules";
import { type AbortReason, type PlannedWrite, PreviewSink, RealSink, type Sink } from "./sinks";

export type ItemAction = "create" | "update" | "unchanged" | "skip" | "error";

export interface RunItem {
  synced_post_id: number | null;
  source_url: string;
  title: string | null;
  action: ItemAction;
  state: SyncedPostState | null;
  body_markdown: string | null;
  images: SyncedPostRow["images"];
  warnings: string[];
  error: string | null;
}

export interface RunView extends RunCounts {
  id: number | null;
  config_id: number;
  status: FinalRunStatus;
  dry_run: boolean;
  publish: boolean;
  max_posts: number;
  source_kind: SourceKind | null;
  source_url: string | null;
  started_at: string;
  finished_at: string;
  error: string | null;
}

export interface RunResult {
  run: RunView;
  items: RunItem[];
}

export interface RunOptions {
  dryRun: boolean;
  publish: boolean;
  /** Defaults to the config's own max_posts. */
  maxPosts?: number;
  trigger: "api" | "schedule";
  scheduleKey?: string | null;
  /** The first claim's length (tests use short ones); the coordinator's answers renew it to RUN_LEASE_MS. */
  leaseMs?: number;
}

/** What one source post renders to, and the hash that decides "changed". */
interface Rendered {
  title: string;
  bodyMarkdown: string;
  bodyRichtext: unknown;
  images: SyncedPostRow["images"];
  contentHash: string;
  warnings: string[];
}

async function render(url: string, config: SyncConfigRow, policy: FetchPolicy): Promise<Rendered> {
  const article = await fetchArticle(url, { policy });
  // Cut once: both forms keep the same blocks.
  const fitted = fitBody(article);
  const markdown = toRedditMarkdown(article, { fitted });
  // Media asset ids come from the forum at publish time; a draft keeps the images it would upload.
  const richtext = config.includeMedia ? toRedditRichText(article, {}, { fitted }).document : null;
  const images = config.includeMedia ? imagesKept(article, fitted) : [];
  const warnings = [...article.warnings];
  if (markdown.truncated) warnings.push("body was shortened to fit the forum's 40,000 character limit");
  const contentHash = await sha256Hex(JSON.stringify([markdown.title, markdown.markdown, richtext, images]));
  return {
    title: markdown.title,
    bodyMarkdown: markdown.markdown,
    bodyRichtext: richtext,
    images,
    contentHash,
    warnings,
  };
}

const PUBLISHED = "already published: never updated or posted again";
const EDITED_SOURCE_CHANGED =
  "the source changed since this draft was edited; the edit is kept (edit the draft again to take the new text)";
const ABORTED_BEFORE_WRITE = "not written: the run stopped (see run.error)";
const ABORTED_BEFORE_QUEUE = "written as a draft but not queued: the run stopped (see run.error)";

/**
 * Decides what happens to one source post given what is stored for it. Drafts follow their source;
 * queued and failed posts are left for the publishing side. Published posts never get here: `walk` skips
 * them before fetching.
 */
function plan(
  existing: SyncedPostRow | undefined,
  rendered: Rendered,
  queueing: boolean,
): (PlannedWrite & { warning?: string }) | { action: "unchanged" | "skip"; warning?: string } {
  const target: SyncedPostState = queueing ? "queued" : "draft";
  if (!existing) return { action: "create", to: target };
  const changed = existing.contentHash !== rendered.contentHash;
  if (existing.state === "draft" && existing.editedAt) {
    // A person's edit is never overwritten; a changed source is reported instead.
    const warning = changed ? EDITED_SOURCE_CHANGED : undefined;
    return queueing ? { action: "unchanged", to: "queued", warning } : { action: "unchanged", warning };
  }
  if (existing.state === "draft") {
    if (changed) return { action: "update", to: target };
    return queueing ? { action: "unchanged", to: "queued" } : { action: "unchanged" };
  }
  if (!changed) return { action: "unchanged" };
  return { action: "skip", warning: `source changed, but the post is ${existing.state}; it is not updated` };
}

interface RunContext {
  /** The fetch policy of this run: its requests count against the workspace's budget and renew its lease. */
  policy: FetchPolicy;
  w: WorkspaceDb;
  config: SyncConfigRow;
  publish: boolean;
  maxPosts: number;
  sink: Sink;
}

interface Tally {
  discovery: Discovery | null;
  items: RunItem[];
  error: string | null;
  aborted: AbortReason | null;
}

/** The pipeline shared by dry and real runs. Engine failures become item or run errors; ours propagate. */
async function walk(ctx: RunContext): Promise<Tally> {
  const { policy, w, config, sink } = ctx;
  const tally: Tally = { discovery: null, items: [], error: null, aborted: null };
  try {
    tally.discovery = await discoverPosts(config.blogUrl, { policy, maxPosts: ctx.maxPosts });
  } catch (err) {
    tally.error = `discovery failed: ${messageOf(err)}`;
    return tally;
  }
  // Discovery already returns at most maxPosts, newest first.
  const candidates = tally.discovery.posts;
  const existing = await findSyncedPostsByUrl(
    w,
    config.id,
    candidates.map((p) => p.url),
  );
  const queueing = ctx.publish && config.active && config.publishImmediately;

  for (const candidate of candidates) {
    // Before each post, not only before writes: a run whose posts are all unchanged keeps its claim alive
    // and still stops when the config changes.
    const stop = await sink.checkpoint();
    if (stop) {
      tally.aborted = stop;
      return tally;
    }
    const stored = existing.get(candidate.url);
    if (stored?.state === "published") {
      // Never touched, not even fetched again.
      tally.items.push(itemOf(candidate.url, stored, "skip", stored.state, [PUBLISHED]));
      continue;
    }
    let rendered: Rendered;
    try {
      rendered = await render(candidate.url, config, policy);
    } catch (err) {
      tally.items.push({
        ...itemOf(candidate.url, stored, "error", stored?.state ?? null, []),
        title: candidate.title ?? stored?.title ?? null,
        error: messageOf(err),
      });
      continue;
    }
    // An edited draft is shown as edited: its text is the person's, not the source's.
    if (stored?.editedAt)
      rendered = { ...rendered, title: stored.title, bodyMarkdown: stored.bodyMarkdown, images: stored.images };
    const decision = plan(stored, rendered, queueing);
    if ("to" in decision && decision.warning)
      rendered = { ...rendered, warnings: [...rendered.warnings, decision.warning] };
    if (!("to" in decision)) {
      const warnings = decision.warning ? [...rendered.warnings, decision.warning] : rendered.warnings;
      tally.items.push(
        renderedItem(candidate.url, stored?.id ?? null, decision.action, stored?.state ?? null, rendered, warnings),
      );
      continue;
    }
    const { warnings: _warnings, ...content } = rendered;
    const outcome = await sink.write({
      ...decision,
      url: candidate.url,
      existing: stored,
      content: { sourceUrl: candidate.url, ...content },
    });
    if (outcome.kind === "aborted") {
      tally.aborted = outcome.reason;
      const item =
        outcome.draftId === undefined
          ? renderedItem(candidate.url, stored?.id ?? null, "skip", stored?.state ?? null, rendered, [
              ...rendered.warnings,
              ABORTED_BEFORE_WRITE,
            ])
          : renderedItem(candidate.url, outcome.draftId, decision.action, "draft", rendered, [
              ...rendered.warnings,
              ABORTED_BEFORE_QUEUE,
            ]);
      tally.items.push(item);
      break;
    }
    if (outcome.kind === "moved") {
      tally.items.push(
        renderedItem(candidate.url, stored?.id ?? null, "skip", outcome.state, rendered, [
          ...rendered.warnings,
          outcome.edited && outcome.state === "draft"
            ? "not written: a person edited the post while the run was working; the edit is kept"
            : `not written: the post became ${outcome.state} while the run was working`,
        ]),
      );
      continue;
    }
    tally.items.push(
      renderedItem(candidate.url, outcome.id, decision.action, outcome.state, rendered, rendered.warnings),
    );
  }
  // A change after the last write still means this run's results were worked out under old settings.
  if (!tally.aborted) tally.aborted = await sink.checkpoint();
  return tally;
}

function itemOf(
  url: string,
  stored: SyncedPostRow | undefined,
  action: ItemAction,
  state: SyncedPostState | null,
  warnings: string[],
): RunItem {
  return {
    synced_post_id: stored?.id ?? null,
    source_url: url,
    title: stored?.title ?? null,
    action,
    state,
    body_markdown: stored?.bodyMarkdown ?? null,
    images: stored?.images ?? [],
    warnings,
    error: null,
  };
}

function renderedItem(
  url: string,
  id: number | null,
  action: ItemAction,
  state: SyncedPostState | null,
  r: Rendered,
  warnings: string[],
): RunItem {
  return {
    synced_post_id: id,
    source_url: url,
    title: r.title,
    action,
    state,
    body_markdown: r.bodyMarkdown,
    images: r.images,
    warnings,
    error: null,
  };
}

function summarize(tally: Tally, queued: number) {
  const count = (action: ItemAction) => tally.items.filter((i) => i.action === action).length;
  const failed = count("error");
  const handled = tally.items.length;
  const firstError = tally.items.find((i) => i.error)?.error;
  let status: FinalRunStatus;
  let error = tally.error;
  if (tally.aborted) {
    status = "aborted";
    error =
      tally.aborted === "config_changed"
        ? "the config changed while the run was active; the run stopped before writing further posts"
        : "the run's claim on the config expired (it was silent past its deadline); it stopped before writing further posts";
  } else if (tally.error) status = "failed";
  else if (tally.discovery?.posts.length === 0) {
    // Nothing to sync is a wrong blog address far more often than an empty blog: say what discovery saw.
    status = "failed";
    const { warnings, sourceUrl } = tally.discovery;
    const seen = warnings.filter((w) => !w.startsWith("no posts found at")).slice(-3);
    error = `no posts found at ${sourceUrl}${seen.length ? ` (${seen.join("; ")})` : ""}`;
  } else if (failed > 0 && failed === handled) {
    status = "failed";
    error = `all ${failed} posts failed; first error: ${firstError}`;
  } else if (failed > 0) {
    status = "partial";
    error = `${failed} of ${handled} posts failed; first error: ${firstError}`;
  } else status = "completed";
  return {
    status,
    error,
    counts: {
      discovered: tally.discovery?.posts.length ?? 0,
      created: count("create"),
      updated: count("update"),
      unchanged: count("unchanged"),
      queued,
      failed,
    },
  };
}

/** Runs a sync of config `configId` (404 when it is not in the workspace; 409 when a real run is active). */
export async function runSync(env: Env, w: WorkspaceDb, configId: number, options: RunOptions): Promise<RunResult> {
  let config = await getConfigRow(w, configId);
  if (!config) throw notFound("sync config");
  const startedAt = nowIso();
  const coordinator = coordinatorFor(env, w.workspaceId);
  if (options.dryRun) {
    // One preview per config at a time (it writes nothing, but it fetches as much as a run).
    const claim = await coordinator.beginPreview({ configId, leaseMs: options.leaseMs });
    if (!claim.ok)
      throw new DomainError(
        "run_in_progress",
        `a dry run of sync config ${configId} is already active; retry when it ends`,
      );
    try {
      const maxPosts = options.maxPosts ?? config.maxPosts;
      const sink = new PreviewSink(coordinator, configId, claim.token);
      const policy = budgetedPolicy(env, coordinator, configId, claim.token, true);
      const tally = await walk({ policy, w, config, publish: options.publish, maxPosts, sink });
      // A dry run names no stored rows: no run id and no synced post ids (docs/blog-sync.md, "Runs"), also for the posts it
      // reports unchanged or skipped from what is stored.
      tally.items = tally.items.map((item) => ({ ...item, synced_post_id: null }));
      return respond(null, config, options, maxPosts, tally, sink.queued, startedAt, nowIso());
    } finally {
      await coordinator.endPreview(configId, claim.token);
    }
  }

  let token: string | undefined;
  // `stale`: the config changed between our read and the claim; read it again (bounded: updates are rare).
  for (let attempt = 0; attempt < 3 && token === undefined; attempt++) {
    const claim = await coordinator.beginRun({
      workspaceId: w.workspaceId,
      configId,
      revision: config.revision,
      fingerprint: config.fingerprint,
      leaseMs: options.leaseMs,
    });
    if (claim.ok) token = claim.token;
    else if (claim.reason === "busy")
      throw new DomainError("run_in_progress", `a run of sync config ${configId} is already active`);
    else {
      config = await getConfigRow(w, configId);
      if (!config) throw notFound("sync config");
    }
  }
  if (token === undefined)
    throw new DomainError("run_in_progress", `sync config ${configId} is being changed; retry the run`);

  const maxPosts = options.maxPosts ?? config.maxPosts;
  try {
    const run = await insertRun(w, {
      configId,
      trigger: options.trigger,
      scheduleKey: options.scheduleKey ?? null,
      publish: options.publish,
      maxPosts,
      fingerprint: config.fingerprint,
    });
    await coordinator.attachRun(configId, token, run.id);
    const sink = new RealSink(env, w, config, coordinator, token);
    let tally: Tally;
    try {
      const policy = budgetedPolicy(env, coordinator, configId, token, false);
      tally = await walk({ policy, w, config, publish: options.publish, maxPosts, sink });
    } catch (err) {
      // Our own failure (database, queue): record it without internals, then let the request answer 500.
      await finishRun(w, run.id, configId, {
        status: "failed",
        sourceKind: null,
        sourceUrl: null,
        ...NO_COUNTS,
        error: "the run stopped on an unexpected internal error",
        finishedAt: nowIso(),
      }).catch(() => undefined);
      throw err;
    }
    const result = respond(run.id, config, options, maxPosts, tally, sink.queued, run.startedAt, nowIso());
    const {
      status,
      source_kind,
      source_url,
      error,
      finished_at,
      discovered,
      created,
      updated,
      unchanged,
      queued,
      failed,
    } = result.run;
    await finishRun(
      w,
      run.id,
      configId,
      {
        status,
        sourceKind: source_kind,
        sourceUrl: source_url,
        error,
        finishedAt: finished_at,
        discovered,
        created,
        updated,
        unchanged,
        queued,
        failed,
      },
      result.items,
    );
    return result;
  } finally {
    await coordinator.endRun(configId, token);
  }
}

/** Thrown before a request once the workspace's outbound fetch budget for this minute is used up. */
export class FetchBudgetUsedUp extends Error {
  override readonly name = "FetchBudgetUsedUp";
  constructor(readonly retryAfterSeconds: number) {
    super(
      `not fetched: this workspace's outbound fetch budget (${FETCHES_PER_MINUTE} requests a minute) is used up; ` +
        `retry in ${retryAfterSeconds} s`,
    );
  }
}

/**
 * The run's fetch policy: before every request it asks the coordinator, which takes one from the
 * workspace's fetch budget and renews the run's (or preview's) lease, so a run busy fetching stays alive.
 */
function budgetedPolicy(
  env: Env,
  coordinator: DurableObjectStub<WorkspaceCoordinator>,
  configId: number,
  token: string,
  preview: boolean,
): FetchPolicy {
  return {
    ...fetchPolicy(env),
    beforeRequest: async () => {
      const answer = await coordinator.beforeFetch({ configId, token, preview });
      if (!answer.ok) throw new FetchBudgetUsedUp(answer.retryAfterSeconds);
    },
  };
}

function respond(
  id: number | null,
  config: SyncConfigRow,
  options: RunOptions,
  maxPosts: number,
  tally: Tally,
  queued: number,
  startedAt: string,
  finishedAt: string,
): RunResult {
  const { status, error, counts } = summarize(tally, queued);
  return {
    run: {
      id,
      config_id: config.id,
      status,
      dry_run: options.dryRun,
      publish: options.publish,
      max_posts: maxPosts,
      source_kind: tally.discovery?.sourceKind ?? null,
      source_url: tally.discovery?.sourceUrl ?? null,
      ...counts,
      started_at: startedAt,
      finished_at: finishedAt,
      error,
    },
    items: tally.items,
  };
}
