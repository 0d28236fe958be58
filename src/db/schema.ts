import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Conventions: integer ids; times are ISO 8601 UTC strings from Date#toISOString() (sortable as text);
// booleans are integers (drizzle mode "boolean"); JSON arrays are text (drizzle mode "json").
// Every table but `workspaces` carries workspace_id, and every query filters on it (see src/db/client.ts).

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const workspaces = sqliteTable("workspaces", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull().default(now),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 (hex) of the whole key; the plain key is never stored. */
    keyHash: text("key_hash").notNull(),
    /** `tw_live_` + 4 characters, for display. */
    prefix: text("prefix").notNull(),
    scope: text("scope", { enum: ["read", "read_write"] }).notNull(),
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
    workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    keyword: text("keyword").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    isAmbiguous: integer("is_ambiguous", { mode: "boolean" }).notNull().default(false),
    searchVolume: integer("search_volume"),
    cpc: text("cpc"),
    serpForumPosition: integer("serp_forum_position"),
    serpForumUrl: text("serp_forum_url"),
    serpCheckedAt: text("serp_checked_at"),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("keywords_workspace_keyword_unique").on(t.workspaceId, sql`lower(${t.keyword})`)],
);

export const competitors = sqliteTable(
  "competitors",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    websiteUrl: text("website_url"),
    keywords: text("keywords", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    isAmbiguous: integer("is_ambiguous", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("competitors_workspace_name_unique").on(t.workspaceId, sql`lower(${t.name})`)],
);

export const posts = sqliteTable(
  "posts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    forumId: text("forum_id").notNull(),
    subreddit: text("subreddit").notNull(),
    title: text("title").notNull(),
    selftext: text("selftext").notNull().default(""),
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
    /** Why the post got its priority and urgency (monitoring score reasons), JSON array of strings. */
    scoreReasons: text("score_reasons", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
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
    index("posts_ws_subreddit_idx").on(t.workspaceId, t.subreddit, t.archived, t.createdUtc, t.id),
  ],
);

export const postKeywords = sqliteTable(
  "post_keywords",
  {
    workspaceId: integer("workspace_id").notNull(),
    postId: integer("post_id").notNull().references(() => posts.id, { onDelete: "cascade" }),
    keywordId: integer("keyword_id").notNull().references(() => keywords.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.postId, t.keywordId] }), index("post_keywords_keyword_idx").on(t.keywordId, t.postId)],
);

export const postCompetitors = sqliteTable(
  "post_competitors",
  {
    workspaceId: integer("workspace_id").notNull(),
    postId: integer("post_id").notNull().references(() => posts.id, { onDelete: "cascade" }),
    competitorId: integer("competitor_id").notNull().references(() => competitors.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.competitorId] }),
    index("post_competitors_competitor_idx").on(t.competitorId, t.postId),
  ],
);
