// Matched comments and the workspace's exclusions (migrations 0074-0076, docs/storage.md). Kept beside schema.ts,
// whose conventions they follow: the comment row mirrors a post's (same triage flags, ranks, name lists kept
// by triggers), so the listing's statements serve both (src/db/posts-query.ts).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { competitors, keywords, workspaces } from "./schema";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const comments = sqliteTable(
  "comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The comment's id without `t1_`. */
    forumId: text("forum_id").notNull(),
    /** Its thread's id without `t3_`. */
    postForumId: text("post_forum_id").notNull(),
    subreddit: text("subreddit").notNull(),
    threadTitle: text("thread_title").notNull().default(""),
    body: text("body").notNull().default(""),
    author: text("author").notNull(),
    permalink: text("permalink").notNull(),
    score: integer("score").notNull().default(0),
    createdUtc: text("created_utc").notNull(),
    isAnswered: integer("is_answered", { mode: "boolean" }).notNull().default(false),
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    skipped: integer("skipped", { mode: "boolean" }).notNull().default(false),
    priority: text("priority", { enum: ["high", "medium", "low"] }),
    urgency: text("urgency", { enum: ["urgent", "not_urgent"] }),
    priorityRank: integer("priority_rank").generatedAlwaysAs(
      sql`CASE priority WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END`,
      { mode: "virtual" },
    ),
    urgencyRank: integer("urgency_rank").generatedAlwaysAs(
      sql`CASE urgency WHEN 'urgent' THEN 2 WHEN 'not_urgent' THEN 1 ELSE 0 END`,
      { mode: "virtual" },
    ),
    /** Kept by triggers on comment_competitors (migration 0074). Never written by the code. */
    hasCompetitors: integer("has_competitors", { mode: "boolean" }).notNull().default(false),
    /** JSON arrays of names sorted by name, kept by triggers (migration 0074). Never written by the code. */
    matchedKeywords: text("matched_keywords").notNull().default(sql`'[]'`),
    mentionedCompetitors: text("mentioned_competitors").notNull().default(sql`'[]'`),
    scoreReasons: text("score_reasons", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("comments_workspace_forum_unique").on(t.workspaceId, t.forumId),
    index("comments_ws_date_idx").on(t.workspaceId, t.archived, t.createdUtc, t.id),
    index("comments_ws_all_date_idx").on(t.workspaceId, t.createdUtc, t.id),
    index("comments_ws_priority_idx").on(t.workspaceId, t.archived, t.priorityRank, t.createdUtc, t.id),
    index("comments_ws_urgency_idx").on(t.workspaceId, t.archived, t.urgencyRank, t.createdUtc, t.id),
    index("comments_ws_score_idx").on(t.workspaceId, t.archived, t.score, t.createdUtc, t.id),
    index("comments_ws_subreddit_nocase_idx").on(
      t.workspaceId,
      sql`${t.subreddit} COLLATE NOCASE`,
      t.archived,
      t.createdUtc,
      t.id,
    ),
    index("comments_ws_answered_idx").on(t.workspaceId, t.archived, t.isAnswered, t.createdUtc, t.id),
    index("comments_ws_competitors_idx").on(t.workspaceId, t.archived, t.hasCompetitors, t.createdUtc, t.id),
    index("comments_id_filters_idx").on(t.id, t.workspaceId, t.archived, t.createdUtc),
    index("comments_ws_thread_idx").on(t.workspaceId, t.postForumId),
  ],
);

export const commentKeywords = sqliteTable(
  "comment_keywords",
  {
    workspaceId: integer("workspace_id").notNull(),
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    keywordId: integer("keyword_id")
      .notNull()
      .references(() => keywords.id, { onDelete: "cascade" }),
    /** The comment's `archived` and `created_utc`, kept by triggers (migration 0074). Never written by the code. */
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    createdUtc: text("created_utc").notNull().default(""),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.keywordId] }),
    index("comment_keywords_keyword_idx").on(t.keywordId, t.commentId),
    index("comment_keywords_keyword_date_idx").on(t.keywordId, t.workspaceId, t.archived, t.createdUtc, t.commentId),
  ],
);

export const commentCompetitors = sqliteTable(
  "comment_competitors",
  {
    workspaceId: integer("workspace_id").notNull(),
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    competitorId: integer("competitor_id")
      .notNull()
      .references(() => competitors.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.competitorId] }),
    index("comment_competitors_competitor_idx").on(t.competitorId, t.commentId),
  ],
);

/** One row per workspace that excluded anything (migration 0076); no row: nothing excluded. */
export const monitorExclusions = sqliteTable("monitor_exclusions", {
  workspaceId: integer("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  terms: text("terms", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  subreddits: text("subreddits", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  authors: text("authors", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  updatedAt: text("updated_at").notNull().default(now),
});
