// The ingester's reads across every workspace (docs/monitoring.md, "The compiled matcher"): the version of all
// tracked terms together, and every workspace's active terms, from each database that holds workspaces.
import type { ShardedEnv } from "./client";
import { workspaceDb } from "./client";
import type { ActiveCompetitor, ActiveKeyword, WorkspaceExclusions } from "./monitor";

/** Rows read per statement (terms can be hundreds of thousands). */
const PAGE = 5_000;

/** The databases that hold workspaces' data: DB and each shard WORKSPACE_SHARDS names, each once. */
function databases(env: ShardedEnv): D1Database[] {
  const all = new Set([env.DB]);
  for (const entry of (env.WORKSPACE_SHARDS ?? "").split(",")) {
    const id = Number(entry.split(":")[0]?.trim());
    if (Number.isInteger(id) && id > 0) all.add(workspaceDb(env, id).d1);
  }
  return [...all];
}

/** The sum of each database's terms version: it changes whenever any workspace's terms change. */
export async function termsVersion(env: ShardedEnv): Promise<number> {
  let total = 0;
  for (const d1 of databases(env)) {
    const row = await d1.prepare("SELECT version FROM monitor_terms_version WHERE id = 1").first<{ version: number }>();
    total += row?.version ?? 0;
  }
  return total;
}

export interface WorkspaceTerms {
  workspaceId: number;
  keywords: ActiveKeyword[];
  competitors: ActiveCompetitor[];
  /** Left out: nothing excluded. */
  exclusions?: WorkspaceExclusions;
}

interface KeywordRow {
  id: number;
  workspace_id: number;
  keyword: string;
  is_ambiguous: number;
  search_volume: number | null;
  cpc: string | null;
  serp_forum_position: number | null;
  serp_forum_url: string | null;
  subreddits: string;
}

interface CompetitorRow {
  id: number;
  workspace_id: number;
  name: string;
  keywords: string;
  is_ambiguous: number;
  subreddits: string;
}

interface ExclusionsRow {
  id: number;
  terms: string;
  subreddits: string;
  authors: string;
}

async function paged<T extends { id: number }>(d1: D1Database, sql: string): Promise<T[]> {
  const out: T[] = [];
  let after = 0;
  for (;;) {
    const { results } = await d1.prepare(sql).bind(after, PAGE).all<T>();
    out.push(...results);
    const last = results[results.length - 1];
    if (results.length < PAGE || !last) return out;
    after = last.id;
  }
}

/** Every workspace's active keywords and competitors, read from the database that holds each workspace. */
export async function allActiveTerms(env: ShardedEnv): Promise<WorkspaceTerms[]> {
  const byWorkspace = new Map<number, WorkspaceTerms>();
  const entry = (workspaceId: number) => {
    const known = byWorkspace.get(workspaceId);
    if (known) return known;
    const e: WorkspaceTerms = {
      workspaceId,
      keywords: [],
      competitors: [],
      exclusions: { terms: [], subreddits: [], authors: [] },
    };
    byWorkspace.set(workspaceId, e);
    return e;
  };
  for (const d1 of databases(env)) {
    const holds = (workspaceId: number) => workspaceDb(env, workspaceId).d1 === d1;
    const kws = await paged<KeywordRow>(
      d1,
      `SELECT id, workspace_id, keyword, is_ambiguous, search_volume, cpc, serp_forum_position, serp_forum_url,
              subreddits
       FROM keywords WHERE active = 1 AND id > ? ORDER BY id LIMIT ?`,
    );
    for (const k of kws)
      if (holds(k.workspace_id))
        entry(k.workspace_id).keywords.push({
          id: k.id,
          keyword: k.keyword,
          isAmbiguous: k.is_ambiguous === 1,
          searchVolume: k.search_volume,
          cpc: k.cpc,
          serpForumPosition: k.serp_forum_position,
          serpForumUrl: k.serp_forum_url,
          subreddits: JSON.parse(k.subreddits) as string[],
        });
    const comps = await paged<CompetitorRow>(
      d1,
      `SELECT id, workspace_id, name, keywords, is_ambiguous, subreddits FROM competitors
       WHERE active = 1 AND id > ? ORDER BY id LIMIT ?`,
    );
    for (const c of comps)
      if (holds(c.workspace_id))
        entry(c.workspace_id).competitors.push({
          id: c.id,
          name: c.name,
          keywords: JSON.parse(c.keywords) as string[],
          isAmbiguous: c.is_ambiguous === 1,
          subreddits: JSON.parse(c.subreddits) as string[],
        });
    // A workspace's exclusions count only where it tracks terms (no terms: nothing is matched to exclude).
    const excluded = await paged<ExclusionsRow>(
      d1,
      `SELECT workspace_id AS id, terms, subreddits, authors FROM monitor_exclusions
       WHERE workspace_id > ? ORDER BY workspace_id LIMIT ?`,
    );
    for (const e of excluded) {
      const known = byWorkspace.get(e.id);
      if (known && holds(e.id))
        known.exclusions = {
          terms: JSON.parse(e.terms) as string[],
          subreddits: JSON.parse(e.subreddits) as string[],
          authors: JSON.parse(e.authors) as string[],
        };
    }
  }
  return [...byWorkspace.values()].sort((a, b) => a.workspaceId - b.workspaceId);
}
