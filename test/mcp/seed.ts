import { env } from "cloudflare:workers";
import { workspaceDb } from "../../src/db/client";
import { postCompetitors, postKeywords, posts } from "../../src/db/schema";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers";

export interface SeededWorkspace extends TestWorkspace {
  keywordIds: number[];
  postIds: number[];
}

const PRIORITIES = ["high", "medium", "low", null] as const;
const URGENCIES = ["urgent", "not_urgent", null] as const;
const SUBREDDITS = ["selfhosted", "webdev", "SaaS"];
const WORDS = ["crm", "invoice", "kanban", "backup", "monitoring", "pricing"];

/**
 * A workspace with keywords and a competitor made through REST, and `count` posts with every priority,
 * urgency, subreddit and answered/archived/skipped combination cycling through them.
 */
export async function seedWorkspace(count = 24): Promise<SeededWorkspace> {
  const ws = await createTestWorkspace("mcp tests");
  const keywordIds: number[] = [];
  for (const keyword of ["crm", "invoice"]) {
    const created = await callJson("/api/v1/keywords", { key: ws.writeKey, method: "POST", body: { keyword } });
    if (created.status !== 201) throw new Error(`keyword seed failed: ${JSON.stringify(created.body)}`);
    keywordIds.push(created.body.id);
  }
  const competitor = await callJson("/api/v1/competitors", {
    key: ws.writeKey,
    method: "POST",
    body: { name: "Acme CRM" },
  });
  if (competitor.status !== 201) throw new Error(`competitor seed failed: ${JSON.stringify(competitor.body)}`);

  const { db } = workspaceDb(env, ws.id);
  const values = Array.from({ length: count }, (_, i) => ({
    workspaceId: ws.id,
    forumId: `t3_mcp${i}`,
    subreddit: SUBREDDITS[i % SUBREDDITS.length]!,
    title: `Looking for a ${WORDS[i % WORDS.length]} tool (${i})`,
    selftext: `Post ${i} asks about ${WORDS[(i + 2) % WORDS.length]} and alternatives`,
    author: i % 5 === 0 ? "[deleted]" : `user${i}`,
    score: (i * 7) % 11,
    numComments: (i * 5) % 9,
    createdUtc: new Date(Date.UTC(2026, 9, 1 + (i % 20), i % 24)).toISOString(),
    permalink: `/r/x/comments/mcp${i}/`,
    url: `https://www.reddit.com/r/x/comments/mcp${i}/`,
    isAnswered: i % 3 === 0,
    archived: i % 7 === 0,
    skipped: i % 4 === 0,
    priority: PRIORITIES[i % PRIORITIES.length]!,
    urgency: URGENCIES[i % URGENCIES.length]!,
  }));
  const postIds: number[] = [];
  // D1 binds at most 100 parameters per statement: 17 columns × 5 rows stays under it.
  for (let i = 0; i < values.length; i += 5) {
    const rows = await db
      .insert(posts)
      .values(values.slice(i, i + 5))
      .returning({ id: posts.id });
    postIds.push(...rows.map((r) => r.id));
  }
  await db
    .insert(postKeywords)
    .values(
      postIds
        .filter((_, i) => i % 2 === 0)
        .map((postId, i) => ({ workspaceId: ws.id, postId, keywordId: keywordIds[i % 2]! })),
    );
  await db
    .insert(postCompetitors)
    .values(
      postIds
        .filter((_, i) => i % 5 === 1)
        .map((postId) => ({ workspaceId: ws.id, postId, competitorId: competitor.body.id })),
    );
  return { ...ws, keywordIds, postIds };
}
