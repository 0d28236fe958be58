// Tracked keywords and competitors of a workspace.
import { and, asc, eq } from "drizzle-orm";
import { invalidState } from "../lib/domain-errors";
import { isUniqueViolation, type WorkspaceDb } from "./client";
import { competitors, keywords } from "./schema";

type KeywordRow = typeof keywords.$inferSelect;
type CompetitorRow = typeof competitors.$inferSelect;

export const serializeKeyword = (k: KeywordRow) => ({
  id: k.id,
  keyword: k.keyword,
  active: k.active,
  is_ambiguous: k.isAmbiguous,
  subreddits: k.subreddits,
  search_volume: k.searchVolume,
  cpc: k.cpc,
  serp_forum_position: k.serpForumPosition,
  serp_forum_url: k.serpForumUrl,
  serp_checked_at: k.serpCheckedAt,
  created_at: k.createdAt,
});

export const serializeCompetitor = (c: CompetitorRow) => ({
  id: c.id,
  name: c.name,
  website_url: c.websiteUrl,
  keywords: c.keywords,
  active: c.active,
  is_ambiguous: c.isAmbiguous,
  subreddits: c.subreddits,
  created_at: c.createdAt,
});

export type KeywordView = ReturnType<typeof serializeKeyword>;
export type CompetitorView = ReturnType<typeof serializeCompetitor>;

const duplicate = (what: string) =>
  invalidState(`${what} already exists in this workspace (compared case-insensitively)`);

async function uniquely<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate(what);
    throw err;
  }
}

/** Case-insensitive beyond ASCII ("Café" = "CAFÉ"); SQLite's lower() in the unique index folds ASCII only. */
const caseKey = (text: string) => text.normalize("NFKC").toLowerCase();

/**
 * Refuses `text` when another row of the workspace has the same text in any case. The unique index still
 * guards concurrent ASCII writes; this check adds the rest of Unicode. Returns false when `exceptId` (the
 * row being renamed) is not in the workspace, so the caller answers 404 rather than 409.
 */
function assertUniqueText(
  what: string,
  rows: { id: number; text: string }[],
  text: string,
  exceptId?: number,
): boolean {
  if (exceptId !== undefined && !rows.some((r) => r.id === exceptId)) return false;
  if (rows.some((r) => r.id !== exceptId && caseKey(r.text) === caseKey(text))) throw duplicate(what);
  return true;
}

/**
 * A competitor's other names with case-insensitive duplicates folded into the first spelling given
 * (`["a", "a", "A"]` is stored as `["a"]`), as names are compared: a duplicate alias would match nothing more.
 */
export function foldAliases(aliases: string[]): string[] {
  const seen = new Set<string>();
  return aliases.filter((alias) => {
    const key = caseKey(alias);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Subreddit names as stored: without `r/`, case-insensitive duplicates folded into the first spelling given
 * (names are compared case-insensitively when matching).
 */
export function subredditList(names: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim().replace(/^\/?r\//i, "");
    const key = name.toLowerCase();
    if (name === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

const keywordTexts = (w: WorkspaceDb) =>
  w.db
    .select({ id: keywords.id, text: keywords.keyword })
    .from(keywords)
    .where(eq(keywords.workspaceId, w.workspaceId))
    .all();
const competitorNames = (w: WorkspaceDb) =>
  w.db
    .select({ id: competitors.id, text: competitors.name })
    .from(competitors)
    .where(eq(competitors.workspaceId, w.workspaceId))
    .all();

export async function getKeyword(w: WorkspaceDb, id: number): Promise<KeywordView | undefined> {
  const row = await w.db
    .select()
    .from(keywords)
    .where(and(eq(keywords.workspaceId, w.workspaceId), eq(keywords.id, id)))
    .get();
  return row ? serializeKeyword(row) : undefined;
}

export async function listKeywords(w: WorkspaceDb): Promise<KeywordView[]> {
  const rows = await w.db
    .select()
    .from(keywords)
    .where(eq(keywords.workspaceId, w.workspaceId))
    .orderBy(asc(keywords.id))
    .all();
  return rows.map(serializeKeyword);
}

export interface KeywordInput {
  keyword: string;
  active?: boolean;
  is_ambiguous?: boolean;
  subreddits?: string[];
}

export async function createKeyword(w: WorkspaceDb, input: KeywordInput): Promise<KeywordView> {
  assertUniqueText(`keyword "${input.keyword}"`, await keywordTexts(w), input.keyword);
  const row = await uniquely(`keyword "${input.keyword}"`, () =>
    w.db
      .insert(keywords)
      .values({
        workspaceId: w.workspaceId,
        keyword: input.keyword,
        active: input.active ?? true,
        isAmbiguous: input.is_ambiguous ?? false,
        subreddits: subredditList(input.subreddits ?? []),
      })
      .returning()
      .get(),
  );
  return serializeKeyword(row);
}

// In the updates below a field left undefined is left out of the SET (drizzle drops undefined values).
/**
 * The keyword as changed, and whether its text is another than before (a new text is measured again:
 * src/monitor/term-changes.ts); the old text is read with the others for the uniqueness check, no query of its
 * own. Undefined: no such keyword in the workspace.
 */
export async function updateKeyword(
  w: WorkspaceDb,
  id: number,
  patch: Partial<KeywordInput>,
): Promise<{ keyword: KeywordView; renamed: boolean } | undefined> {
  let previous: string | undefined;
  if (patch.keyword !== undefined) {
    const texts = await keywordTexts(w);
    if (!assertUniqueText(`keyword "${patch.keyword}"`, texts, patch.keyword, id)) return undefined;
    previous = texts.find((r) => r.id === id)?.text;
  }
  // The numbers measured the old text: unknown (null) until the new one is measured.
  const renamed = previous !== undefined && previous !== patch.keyword;
  const row = await uniquely(`keyword "${patch.keyword}"`, () =>
    w.db
      .update(keywords)
      .set({
        keyword: patch.keyword,
        active: patch.active,
        isAmbiguous: patch.is_ambiguous,
        subreddits: patch.subreddits && subredditList(patch.subreddits),
        ...(renamed ? UNMEASURED : {}),
      })
      .where(and(eq(keywords.workspaceId, w.workspaceId), eq(keywords.id, id)))
      .returning()
      .get(),
  );
  return row ? { keyword: serializeKeyword(row), renamed } : undefined;
}

/** A keyword's metrics before any measurement (docs/monitoring.md, "Keyword metrics": null until known). */
const UNMEASURED = { searchVolume: null, cpc: null, serpForumPosition: null, serpForumUrl: null, serpCheckedAt: null };

/** Deletes a keyword; its post links go with it (ON DELETE CASCADE), the posts stay. */
export async function deleteKeyword(w: WorkspaceDb, id: number): Promise<boolean> {
  const row = await w.db
    .delete(keywords)
    .where(and(eq(keywords.workspaceId, w.workspaceId), eq(keywords.id, id)))
    .returning({ id: keywords.id })
    .get();
  return row !== undefined;
}

export async function getCompetitor(w: WorkspaceDb, id: number): Promise<CompetitorView | undefined> {
  const row = await w.db
    .select()
    .from(competitors)
    .where(and(eq(competitors.workspaceId, w.workspaceId), eq(competitors.id, id)))
    .get();
  return row ? serializeCompetitor(row) : undefined;
}

export async function listCompetitors(w: WorkspaceDb): Promise<CompetitorView[]> {
  const rows = await w.db
    .select()
    .from(competitors)
    .where(eq(competitors.workspaceId, w.workspaceId))
    .orderBy(asc(competitors.id))
    .all();
  return rows.map(serializeCompetitor);
}

export interface CompetitorInput {
  name: string;
  website_url?: string | null;
  keywords?: string[];
  active?: boolean;
  is_ambiguous?: boolean;
  subreddits?: string[];
}

export async function createCompetitor(w: WorkspaceDb, input: CompetitorInput): Promise<CompetitorView> {
  assertUniqueText(`competitor "${input.name}"`, await competitorNames(w), input.name);
  const row = await uniquely(`competitor "${input.name}"`, () =>
    w.db
      .insert(competitors)
      .values({
        workspaceId: w.workspaceId,
        name: input.name,
        websiteUrl: input.website_url ?? null,
        keywords: foldAliases(input.keywords ?? []),
        active: input.active ?? true,
        isAmbiguous: input.is_ambiguous ?? false,
        subreddits: subredditList(input.subreddits ?? []),
      })
      .returning()
      .get(),
  );
  return serializeCompetitor(row);
}

export async function updateCompetitor(
  w: WorkspaceDb,
  id: number,
  patch: Partial<CompetitorInput>,
): Promise<CompetitorView | undefined> {
  if (
    patch.name !== undefined &&
    !assertUniqueText(`competitor "${patch.name}"`, await competitorNames(w), patch.name, id)
  )
    return undefined;
  const row = await uniquely(`competitor "${patch.name}"`, () =>
    w.db
      .update(competitors)
      .set({
        name: patch.name,
        websiteUrl: patch.website_url,
        keywords: patch.keywords && foldAliases(patch.keywords),
        active: patch.active,
        isAmbiguous: patch.is_ambiguous,
        subreddits: patch.subreddits && subredditList(patch.subreddits),
      })
      .where(and(eq(competitors.workspaceId, w.workspaceId), eq(competitors.id, id)))
      .returning()
      .get(),
  );
  return row ? serializeCompetitor(row) : undefined;
}

export async function deleteCompetitor(w: WorkspaceDb, id: number): Promise<boolean> {
  const row = await w.db
    .delete(competitors)
    .where(and(eq(competitors.workspaceId, w.workspaceId), eq(competitors.id, id)))
    .returning({ id: competitors.id })
    .get();
  return row !== undefined;
}
