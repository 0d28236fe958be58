// The one way to make a workspace with data: `npm run seed`, the demo workspace of `npm start`, the
// benchmarks (through scripts/seed-worker.ts, in workerd) and the tests all create workspaces, keys and
// content here, through src/db. See docs/commands.md ("npm run seed").

import { createKey } from "../../src/auth/issue-key";
import type { KeyScope } from "../../src/auth/keys";
import { createWorkspace } from "../../src/db/api-keys";
import { directoryDb, workspaceDb } from "../../src/db/client";
import type { Env } from "../../src/env";
import {
  deleteWorkspace,
  insertCompetitors,
  insertKeywords,
  insertPostLinks,
  insertPosts,
  type SeedCompetitor,
  type SeedKeyword,
  type SeedPost,
} from "./rows";
import { syntheticCompetitors, syntheticKeywords, syntheticPosts } from "./synthetic";

export type { SeedCompetitor, SeedKeyword, SeedPost };

/** What to put into a workspace: posts name the keywords they matched and the competitors they mention. */
export interface WorkspaceContent {
  keywords: SeedKeyword[];
  competitors: SeedCompetitor[];
  posts: (SeedPost & { keywords?: readonly string[]; competitors?: readonly string[] })[];
}

export interface WrittenContent {
  /** Ids in the order given. */
  keywordIds: number[];
  competitorIds: number[];
  postIds: number[];
}

/** Issues keys for a workspace, in the order asked; returns the plain keys (the database keeps digests). */
export async function issueKeys(
  env: Pick<Env, "DB">,
  workspaceId: number,
  keys: readonly { name: string; scope: KeyScope }[],
): Promise<string[]> {
  const plain: string[] = [];
  for (const spec of keys) plain.push((await createKey(directoryDb(env), workspaceId, spec)).key);
  return plain;
}

/** A new workspace with the keys asked for (the admin API's own code). */
export async function createWorkspaceWithKeys(
  env: Pick<Env, "DB">,
  name: string,
  keys: readonly { name: string; scope: KeyScope }[],
): Promise<{ workspaceId: number; keys: string[] }> {
  const workspace = await createWorkspace(directoryDb(env), name);
  return { workspaceId: workspace.id, keys: await issueKeys(env, workspace.id, keys) };
}

/** Writes keywords, competitors, posts and the posts' links into an existing workspace. */
export async function writeContent(
  env: Pick<Env, "DB">,
  workspaceId: number,
  content: WorkspaceContent,
): Promise<WrittenContent> {
  const w = workspaceDb(env, workspaceId);
  const keywordIds = await insertKeywords(w, content.keywords);
  const competitorIds = await insertCompetitors(w, content.competitors);
  const keywordId = new Map(content.keywords.map((k, i) => [k.keyword.toLowerCase(), keywordIds[i]!]));
  const competitorId = new Map(content.competitors.map((c, i) => [c.name.toLowerCase(), competitorIds[i]!]));
  const idOf = (map: Map<string, number>, name: string, what: string) => {
    const id = map.get(name.toLowerCase());
    if (id === undefined) throw new Error(`a seeded post names the unknown ${what} "${name}"`);
    return id;
  };
  const postIds = await insertPosts(w, content.posts);
  await insertPostLinks(w, {
    keywords: content.posts.flatMap((p, i) =>
      (p.keywords ?? []).map((k): [number, number] => [postIds[i]!, idOf(keywordId, k, "keyword")]),
    ),
    competitors: content.posts.flatMap((p, i) =>
      (p.competitors ?? []).map((c): [number, number] => [postIds[i]!, idOf(competitorId, c, "competitor")]),
    ),
  });
  return { keywordIds, competitorIds, postIds };
}

/** The synthetic content of an email-marketing product (scripts/seed/synthetic.ts), `posts` posts. */
export function syntheticContent(posts: number, seed: number, nowMs = Date.now()): WorkspaceContent {
  return {
    keywords: syntheticKeywords(new Date(nowMs).toISOString()),
    competitors: syntheticCompetitors(),
    posts: syntheticPosts(posts, seed, nowMs),
  };
}

/** The keys every seeded workspace gets: read_write first, then read, then `extraReadKeys` more read keys. */
export const seedKeys = (label: string, extraReadKeys = 0): { name: string; scope: KeyScope }[] => [
  { name: `${label} read_write`, scope: "read_write" },
  { name: `${label} read`, scope: "read" },
  ...Array.from({ length: extraReadKeys }, (_, i) => ({ name: `${label} read ${i + 2}`, scope: "read" as const })),
];

/**
 * A new workspace with keys and `content`. Nothing is left half written: if a write fails, the workspace
 * is deleted again (its rows cascade) and the error propagates.
 */
export async function seedWorkspace(
  env: Pick<Env, "DB">,
  input: { name: string; keys: readonly { name: string; scope: KeyScope }[]; content: WorkspaceContent },
): Promise<{ workspaceId: number; keys: string[] } & WrittenContent> {
  const workspace = await createWorkspace(directoryDb(env), input.name);
  try {
    const keys = await issueKeys(env, workspace.id, input.keys);
    return { workspaceId: workspace.id, keys, ...(await writeContent(env, workspace.id, input.content)) };
  } catch (err) {
    await deleteWorkspace(workspaceDb(env, workspace.id)).catch(() => {});
    throw err;
  }
}
