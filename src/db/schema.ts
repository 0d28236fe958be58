import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Conventions: integer ids; times are ISO 8601 UTC strings from Date#toISOString() (sortable as text);
// booleans are integers (drizzle mode "boolean"); JSON arrays are text (drizzle mode "json").
// Every table but `workspaces` carries workspace_id, and every query filters on it (see src/db/client.ts).

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

/** Who approved a synced post: the API key of the request (or of the console's session), or a person. */
export interface Approver {
  type: "key" | "person";
  id: number;
  name: string;
}

/** The events a webhook may receive (docs/alerts.md, "Events"). */
export const WEBHOOK_EVENT_TYPES = ["post.created", "comment.created", "synced_post.removed"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const workspaces = sqliteTable("workspaces", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull().default(now),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 (hex) of the whole key; the plain key is never stored. */
    keyHash: text("key_hash").notNull(),
    /** `tw_live_` + 4 characters, for display. */
    prefix: text("prefix").notNull(),
    scope: text("scope", { enum: ["read", "read_write"] }).notNull(),
    /** The role ceiling: the role of the person who made it, `owner` for admin API, seed and demo keys. */
    role: text("role", { enum: ["owner", "admin", "member", "viewer"] })
      .notNull()
      .default("owner"),
    /** The person who made it in the console, if one did. */
    personId: integer("person_id"),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    lastUsedAt: text("last_used_at"),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_unique").on(t.keyHash),
    index("api_keys_workspace_idx").on(t.workspaceId),
    index("api_keys_expires_idx").on(t.expiresAt),
  ],
);

export const keywords = sqliteTable(
  "keywords",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    keyword: text("keyword").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    isAmbiguous: integer("is_ambiguous", { mode: "boolean" }).notNull().default(false),
    searchVolume: integer("search_volume"),
    cpc: text("cpc"),
    serpForumPosition: integer("serp_forum_position"),
    serpForumUrl: text("serp_forum_url"),
    serpCheckedAt: text("serp_checked_at"),
    /** Only matches in these subreddits count (migration 0076); empty: everywhere. */
    subreddits: text("subreddits", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    // Migration 0081 adds a virtual column serp_forum_path (serp_forum_url written as a permalink) that only
    // the opportunity value's SQL reads; it is left out here so no statement of the code selects it.
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("keywords_workspace_keyword_unique").on(t.workspaceId, sql`lower(${t.keyword})`),
    // The weekly metrics cron finds stale keywords of every workspace (migration 0030).
    index("keywords_serp_checked_idx").on(t.serpCheckedAt),
  ],
);

export const competitors = sqliteTable(
  "competitors",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    websiteUrl: text("website_url"),
    keywords: text("keywords", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    isAmbiguous: integer("is_ambiguous", { mode: "boolean" }).notNull().default(false),
    /** Only matches in these subreddits count (migration 0076); empty: everywhere. */
    subreddits: text("subreddits", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("competitors_workspace_name_unique").on(t.workspaceId, sql`lower(${t.name})`)],
);

export const posts = sqliteTable(
  "posts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    forumId: text("forum_id").notNull(),
    subreddit: text("subreddit").notNull(),
    title: text("title").notNull(),
    selftext: text("selftext").notNull().default(""),
    // author, url and permalink are required: migration 0006's triggers refuse NULL (SQLite cannot add NOT
    // NULL to an existing column without rebuilding the table, which in D1 would cascade-delete its links).
    author: text("author"),
    url: text("url"),
    score: integer("score").notNull().default(0),
    numComments: integer("num_comments").notNull().default(0),
    createdUtc: text("created_utc").notNull(),
    permalink: text("permalink"),
    isAnswered: integer("is_answered", { mode: "boolean" }).notNull().default(false),
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    skipped: integer("skipped", { mode: "boolean" }).notNull().default(false),
    priority: text("priority", { enum: ["high", "medium", "low"] }),
    urgency: text("urgency", { enum: ["urgent", "not_urgent"] }),
    /** Sort keys derived by SQLite itself, so they can never disagree with priority/urgency. */
    priorityRank: integer("priority_rank").generatedAlwaysAs(
      sql`CASE priority WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END`,
      { mode: "virtual" },
    ),
    urgencyRank: integer("urgency_rank").generatedAlwaysAs(
      sql`CASE urgency WHEN 'urgent' THEN 2 WHEN 'not_urgent' THEN 1 ELSE 0 END`,
      { mode: "virtual" },
    ),
    /**
     * Whether any post_competitors row names this post. Kept by triggers on post_competitors (migration
     * 0004), so the has_competitors filter and its count read an index instead of probing per post.
     */
    hasCompetitors: integer("has_competitors", { mode: "boolean" }).notNull().default(false),
    /**
     * The names of the post's matched keywords and mentioned competitors, JSON arrays sorted by name, kept by
     * triggers on the links and on keyword / competitor renames (migration 0061), so a page of posts reads
     * one row per post instead of its links and their names. Never written by the code.
     */
    matchedKeywords: text("matched_keywords").notNull().default(sql`'[]'`),
    mentionedCompetitors: text("mentioned_competitors").notNull().default(sql`'[]'`),
    /** Why the post got its priority and urgency (monitoring score reasons), JSON array of strings. */
    scoreReasons: text("score_reasons", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /**
     * Opportunity value in US$ a month (docs/insights.md), null without keyword metrics. Kept by triggers on
     * the links, the permalink and keyword metrics (migration 0081, view post_values). Never written by the code.
     */
    value: real("value"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("posts_workspace_forum_unique").on(t.workspaceId, t.forumId),
    index("posts_ws_date_idx").on(t.workspaceId, t.archived, t.createdUtc, t.id),
    index("posts_ws_priority_idx").on(t.workspaceId, t.archived, t.priorityRank, t.createdUtc, t.id),
    index("posts_ws_urgency_idx").on(t.workspaceId, t.archived, t.urgencyRank, t.createdUtc, t.id),
    index("posts_ws_score_idx").on(t.workspaceId, t.archived, t.score, t.createdUtc, t.id),
    index("posts_ws_comments_idx").on(t.workspaceId, t.archived, t.numComments, t.createdUtc, t.id),
    // The subreddit filter compares with COLLATE NOCASE; an index is only usable when declared the same way.
    index("posts_ws_subreddit_nocase_idx").on(
      t.workspaceId,
      sql`${t.subreddit} COLLATE NOCASE`,
      t.archived,
      t.createdUtc,
      t.id,
    ),
    index("posts_ws_answered_idx").on(t.workspaceId, t.archived, t.isAnswered, t.createdUtc, t.id),
    index("posts_ws_competitors_idx").on(t.workspaceId, t.archived, t.hasCompetitors, t.createdUtc, t.id),
    // Counts of two or more of these filters at once read this index alone (equality on its leading columns).
    index("posts_ws_flags_idx").on(
      t.workspaceId,
      t.archived,
      t.priorityRank,
      t.hasCompetitors,
      t.isAnswered,
      t.createdUtc,
      t.id,
    ),
    // priority and has_competitors, best scored first: the page's ids from index entries only (migration 0063).
    index("posts_ws_priority_competitors_score_idx").on(
      t.workspaceId,
      t.archived,
      t.priorityRank,
      t.hasCompetitors,
      t.score,
      t.createdUtc,
      t.id,
    ),
    // include_archived=true in date order, without sorting the whole workspace.
    index("posts_ws_all_date_idx").on(t.workspaceId, t.createdUtc, t.id),
    // One keyword's posts are counted against this narrow index (workspace, archived), not the wide rows.
    index("posts_id_filters_idx").on(t.id, t.workspaceId, t.archived, t.createdUtc),
    // The open posts with a value, highest first (GET /insights/opportunities; partial, migration 0081).
    index("posts_ws_open_value_idx")
      .on(t.workspaceId, t.value, t.createdUtc, t.id)
      .where(sql`is_answered = 0 AND archived = 0 AND skipped = 0 AND value IS NOT NULL`),
  ],
);

export const postKeywords = sqliteTable(
  "post_keywords",
  {
    workspaceId: integer("workspace_id").notNull(),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    keywordId: integer("keyword_id")
      .notNull()
      .references(() => keywords.id, { onDelete: "cascade" }),
    /**
     * The post's `archived` and `created_utc`, kept by triggers (migration 0062) so a keyword's posts are
     * listed in date order and counted from post_keywords_keyword_date_idx alone. Never written by the code.
     */
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    createdUtc: text("created_utc").notNull().default(""),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.keywordId] }),
    index("post_keywords_keyword_idx").on(t.keywordId, t.postId),
    index("post_keywords_keyword_date_idx").on(t.keywordId, t.workspaceId, t.archived, t.createdUtc, t.postId),
  ],
);

export const postCompetitors = sqliteTable(
  "post_competitors",
  {
    workspaceId: integer("workspace_id").notNull(),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    competitorId: integer("competitor_id")
      .notNull()
      .references(() => competitors.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.competitorId] }),
    index("post_competitors_competitor_idx").on(t.competitorId, t.postId),
  ],
);

// Blog-to-subreddit sync (docs/blog-sync.md): one config per blog + subreddit of a workspace, the posts it synced, and
// the record of every real run (dry runs leave no trace).

export const syncConfigs = sqliteTable(
  "sync_configs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Normalized absolute http(s) URL of the blog index, feed, sitemap or landing page. */
    blogUrl: text("blog_url").notNull(),
    /** Stored without `r/`, as given (Reddit names are case-insensitive; matching uses lower()). */
    subreddit: text("subreddit").notNull(),
    /** Preferred persona; a reference to personas kept by triggers (migration 0020). */
    personaId: integer("persona_id"),
    includeMedia: integer("include_media", { mode: "boolean" }).notNull().default(false),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    publishImmediately: integer("publish_immediately", { mode: "boolean" }).notNull().default(false),
    maxPosts: integer("max_posts").notNull().default(5),
    /** Link flair template id for published posts (docs/publishing.md, "Readiness"; not fingerprinted). */
    flairId: text("flair_id"),
    /** Whether drafts end with a line linking back to the article (docs/blog-sync.md; not fingerprinted). */
    sourceLink: integer("source_link", { mode: "boolean" }).notNull().default(true),
    /** SHA-256 hex of the canonical JSON of the fingerprinted settings (docs/blog-sync.md, "Fingerprint"). */
    fingerprint: text("fingerprint").notNull(),
    /** Bumped by every update, so the workspace Durable Object can order fingerprint notices. */
    revision: integer("revision").notNull().default(1),
    lastRunAt: text("last_run_at"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("sync_configs_ws_blog_subreddit_unique").on(t.workspaceId, t.blogUrl, sql`lower(${t.subreddit})`),
    index("sync_configs_active_idx").on(t.workspaceId, t.active),
  ],
);

export const syncedPosts = sqliteTable(
  "synced_posts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    configId: integer("config_id")
      .notNull()
      .references(() => syncConfigs.id, { onDelete: "cascade" }),
    /** Canonical source URL: the idempotence key together with config_id. */
    sourceUrl: text("source_url").notNull(),
    title: text("title").notNull(),
    bodyMarkdown: text("body_markdown").notNull(),
    /** Reddit rich-text document (JSON), only when the config includes media. */
    bodyRichtext: text("body_richtext", { mode: "json" }).$type<unknown>(),
    images: text("images", { mode: "json" })
      .$type<{ url: string; alt: string; caption: string | null }[]>()
      .notNull()
      .default(sql`'[]'`),
    /** SHA-256 hex of what would be published (title, bodies, images): "changed source" means this changed. */
    contentHash: text("content_hash").notNull(),
    state: text("state", { enum: ["draft", "queued", "published", "failed"] })
      .notNull()
      .default("draft"),
    approvedAt: text("approved_at"),
    /** Who approved (migration 0070): the person of a person's console session, else the request's API key. */
    approvedBy: text("approved_by", { mode: "json" }).$type<Approver>(),
    /** SHA-256 hex of the content approved (approvedContentHash in src/publishing/approval.ts). */
    approvedContentHash: text("approved_content_hash"),
    forumPostId: text("forum_post_id"),
    permalink: text("permalink"),
    error: text("error"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
    publishedAt: text("published_at"),
    /** Set when a person edited the draft: runs never overwrite it (content_hash stays the source's). */
    editedAt: text("edited_at"),
    /** Set just before a submission is sent: a retry looks in the account's submitted list first. */
    submitAttemptedAt: text("submit_attempted_at"),
    /** The persona that published it (migration 0070): its visibility checks ask /api/info as that persona. */
    publishedPersonaId: integer("published_persona_id"),
    /** What a logged-out visitor sees of the published post (migration 0070); null until it is checked. */
    visibility: text("visibility", { enum: ["live", "removed", "spam_filtered", "deleted"] }),
    visibilityCheckedAt: text("visibility_checked_at"),
    visibilityReason: text("visibility_reason"),
    /** How many of the scheduled visibility checks are done (a repeated delivery of one does nothing). */
    visibilityChecksDone: integer("visibility_checks_done").notNull().default(0),
  },
  (t) => [
    uniqueIndex("synced_posts_config_source_unique").on(t.configId, t.sourceUrl),
    index("synced_posts_ws_config_state_idx").on(t.workspaceId, t.configId, t.state),
  ],
);

export const syncRuns = sqliteTable(
  "sync_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    configId: integer("config_id")
      .notNull()
      .references(() => syncConfigs.id, { onDelete: "cascade" }),
    /** `api` (POST .../run) or `schedule` (daily cron through the sync queue). */
    trigger: text("trigger", { enum: ["api", "schedule"] }).notNull(),
    /** For scheduled runs, the UTC day they were scheduled for: a redelivered message does not run twice. */
    scheduleKey: text("schedule_key"),
    status: text("status", { enum: ["running", "completed", "partial", "aborted", "failed"] }).notNull(),
    publish: integer("publish", { mode: "boolean" }).notNull(),
    maxPosts: integer("max_posts").notNull(),
    fingerprint: text("fingerprint").notNull(),
    sourceKind: text("source_kind", { enum: ["feed", "sitemap", "index", "landing"] }),
    sourceUrl: text("source_url"),
    discovered: integer("discovered").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    queued: integer("queued").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    error: text("error"),
    startedAt: text("started_at").notNull().default(now),
    finishedAt: text("finished_at"),
  },
  (t) => [
    index("sync_runs_ws_config_idx").on(t.workspaceId, t.configId, t.startedAt),
    index("sync_runs_schedule_idx").on(t.configId, t.scheduleKey),
  ],
);

// Monitoring (docs/monitoring.md, migration 0030): every ingestion pass of a workspace, and where each of its search
// queries stopped.

export const monitorRuns = sqliteTable(
  "monitor_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** `api` (POST /actions/monitoring/run) or `schedule` (the 10-minute cron through the monitor queue). */
    trigger: text("trigger", { enum: ["api", "schedule"] }).notNull(),
    status: text("status", { enum: ["running", "completed", "partial", "failed"] }).notNull(),
    requests: integer("requests").notNull().default(0),
    queries: integer("queries").notNull().default(0),
    fetched: integer("fetched").notNull().default(0),
    matched: integer("matched").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    error: text("error"),
    startedAt: text("started_at").notNull().default(now),
    finishedAt: text("finished_at"),
    /** A running pass past this time is dead (its Worker was stopped); another pass may start. */
    leaseUntil: text("lease_until").notNull(),
  },
  (t) => [
    index("monitor_runs_ws_idx").on(t.workspaceId, t.id),
    index("monitor_runs_ws_status_idx").on(t.workspaceId, t.status),
  ],
);

/** What a real run did with each post it handled (GET .../runs/:run_id); the body stays the synced post's. */
export const syncRunItems = sqliteTable(
  "sync_run_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    runId: integer("run_id")
      .notNull()
      .references(() => syncRuns.id, { onDelete: "cascade" }),
    /** Order within the run (the order the run handled its posts: newest first). */
    position: integer("position").notNull(),
    syncedPostId: integer("synced_post_id"),
    sourceUrl: text("source_url").notNull(),
    title: text("title"),
    action: text("action", { enum: ["create", "update", "unchanged", "skip", "error"] }).notNull(),
    state: text("state", { enum: ["draft", "queued", "published", "failed"] }),
    warnings: text("warnings", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    error: text("error"),
  },
  (t) => [index("sync_run_items_ws_run_idx").on(t.workspaceId, t.runId, t.position)],
);

// Personas (docs/publishing.md, migrations 0020 and 0068): forum accounts of a workspace connected by OAuth. The
// refresh token and the cached access token are sealed with AES-GCM under SESSION_KEY (src/lib/sealing.ts);
// neither is ever returned.
export const personas = sqliteTable(
  "personas",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The forum's own answer to who am I after connecting; unique per workspace case-insensitively. */
    username: text("username").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    authCompleted: integer("auth_completed", { mode: "boolean" }).notNull().default(false),
    browserReady: integer("browser_ready", { mode: "boolean" }).notNull().default(false),
    /** Set only through the admin API ("approved for the customer"). */
    approved: integer("approved", { mode: "boolean" }).notNull().default(false),
    /** SECRET: the grant's refresh token, `v1.<key id>.<iv>.<ciphertext>` (base64url); null: no grant. */
    refreshTokenSealed: text("refresh_token_sealed"),
    /** SECRET: the cached access token, sealed like the refresh token. */
    accessTokenSealed: text("access_token_sealed"),
    /** When the cached access token is renewed: shortly before the forum says it expires. */
    accessTokenExpiresAt: text("access_token_expires_at"),
    /** The scopes the forum granted, as a JSON array. */
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /** Bumped by every change of the grant (a refresh writes only over the grant it refreshed). */
    grantVersion: integer("grant_version").notNull().default(0),
    /** While set in the future, one caller is refreshing the grant and the others wait for it. */
    refreshClaimedUntil: text("refresh_claimed_until"),
    lastCheckedAt: text("last_checked_at"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [uniqueIndex("personas_ws_username_unique").on(t.workspaceId, sql`lower(${t.username})`)],
);

// OAuth connections in progress (docs/security.md, migration 0068): the SHA-256 of the state, single-use, ten minutes.
export const oauthStates = sqliteTable(
  "oauth_states",
  {
    stateHash: text("state_hash").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    expiresAt: text("expires_at").notNull(),
    createdAt: text("created_at").notNull().default(now),
    /** Who started the connection (migration 0083), named by the callback's audit event; null before 0083. */
    actorType: text("actor_type", { enum: ["person", "key", "admin", "system"] }),
    actorId: text("actor_id"),
    actorName: text("actor_name"),
  },
  (t) => [index("oauth_states_expires_idx").on(t.expiresAt)],
);

// Alerts (docs/alerts.md, migration 0050): webhooks, one delivery per event and webhook, every attempt (30 days).
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    format: text("format", { enum: ["json", "slack"] })
      .notNull()
      .default("json"),
    minPriority: text("min_priority", { enum: ["high", "medium", "low"] })
      .notNull()
      .default("high"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** SECRET: the signing secret, AES-GCM under SESSION_KEY (src/lib/sealing.ts); shown once at creation. */
    secretSealed: text("secret_sealed").notNull(),
    createdAt: text("created_at").notNull().default(now),
    /** The event types it receives (migration 0071); all of them unless the webhook names fewer. */
    events: text("events", { mode: "json" })
      .$type<WebhookEventType[]>()
      .notNull()
      .default(sql`'["post.created","comment.created","synced_post.removed"]'`),
  },
  (t) => [index("webhooks_ws_idx").on(t.workspaceId, t.id)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    webhookId: integer("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** `evt_...`, the same for every attempt (receivers de-duplicate on it). */
    eventId: text("event_id").notNull(),
    type: text("type", { enum: ["post.created", "comment.created", "webhook.test", "synced_post.removed"] }).notNull(),
    postId: integer("post_id"),
    /** The synced post a `synced_post.removed` delivery announces (one per webhook and post). */
    syncedPostId: integer("synced_post_id"),
    /** The comment a `comment.created` delivery announces (migration 0074); unique per webhook. */
    commentId: integer("comment_id"),
    /** The event as JSON (`{id, type, created_at, data}`), fixed when the event happened. */
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull().default(now),
    lastAttemptAt: text("last_attempt_at"),
    deliveredAt: text("delivered_at"),
  },
  (t) => [
    index("webhook_deliveries_ws_hook_idx").on(t.workspaceId, t.webhookId, t.id),
    uniqueIndex("webhook_deliveries_hook_post_unique").on(t.webhookId, t.postId).where(sql`${t.postId} IS NOT NULL`),
    uniqueIndex("webhook_deliveries_hook_synced_post_unique")
      .on(t.webhookId, t.syncedPostId)
      .where(sql`${t.syncedPostId} IS NOT NULL`),
    index("webhook_deliveries_created_idx").on(t.createdAt),
  ],
);

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    outcome: text("outcome", { enum: ["delivered", "retry", "failed"] }).notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    attemptedAt: text("attempted_at").notNull().default(now),
  },
  (t) => [
    index("webhook_attempts_delivery_idx").on(t.workspaceId, t.deliveryId, t.id),
    index("webhook_attempts_at_idx").on(t.attemptedAt),
  ],
);
