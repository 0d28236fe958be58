import { env } from "cloudflare:workers";
import { writeContent } from "../../scripts/seed/workspace";
import { createTestWorkspace, type TestWorkspace } from "./api";

export interface SeededWorkspace extends TestWorkspace {
  keywordIds: number[];
  postIds: number[];
}

const PRIORITIES = ["high", "medium", "low", null] as const;
const URGENCIES = ["urgent", "not_urgent", null] as const;
const SUBREDDITS = ["selfhosted", "webdev", "SaaS"];
const WORDS = ["crm", "invoice", "kanban", "backup", "monitoring", "pricing"];

/**
 * A workspace with two keywords, a competitor and `count` posts with every priority, urgency, subreddit and
 * answered/archived/skipped combination cycling through them, made by the seeding module.
 */
export async function seedWorkspace(count = 24): Promise<SeededWorkspace> {
  const ws = await createTestWorkspace("mcp tests");
  const keywords = ["crm", "invoice"];
  const posts = Array.from({ length: count }, (_, i) => ({
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
    // Every other post matched a keyword (alternating), every fifth from the second mentions the competitor.
    keywords: i % 2 === 0 ? [keywords[(i / 2) % 2]!] : [],
    competitors: i % 5 === 1 ? ["Acme CRM"] : [],
  }));
  const written = await writeContent(env, ws.id, {
    keywords: keywords.map((keyword) => ({ keyword })),
    competitors: [{ name: "Acme CRM" }],
    posts,
  });
  return { ...ws, keywordIds: written.keywordIds, postIds: written.postIds };
}
