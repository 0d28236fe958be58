// The insights' tables (migrations 0081-0082, docs/insights.md). Kept beside schema.ts, whose conventions they
// follow.
import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./schema";

/**
 * Mentions per UTC day (docs/insights.md): for each keyword, competitor (`ref` = its id as decimal text) and
 * subreddit (`ref` = its name), how many stored posts and comments created that day mention it. Kept by
 * triggers on posts, comments and their links (migrations 0081, 0082); never written by the code.
 */
export const mentionDays = sqliteTable(
  "mention_days",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["keyword", "competitor", "subreddit"] }).notNull(),
    day: text("day").notNull(),
    ref: text("ref").notNull(),
    posts: integer("posts").notNull().default(0),
    comments: integer("comments").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.kind, t.day, t.ref] })],
);

/** Organic click-through rate by search-result position 1..20 (migration 0081; docs/insights.md cites it). */
export const clickThroughRates = sqliteTable("click_through_rates", {
  position: integer("position").primaryKey(),
  rate: real("rate").notNull(),
});
