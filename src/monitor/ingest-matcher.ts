// The ingester's matcher (docs/monitoring.md, "The compiled matcher"): every workspace's active terms in one
// TermIndex, so matching a post costs the same for 10 workspaces or 10,000. What counts for each workspace is
// still decided by countedMatch (match.ts), the one function every path calls; this only finds, once for all,
// which workspaces' terms a post contains. Pure.
import type { WorkspaceTerms } from "../db/ingest";
import { countedMatch, type MatchResult, TermIndex, type TrackedTerm } from "./match";
import { scoreMatch, trackedSignals } from "./pass";

type Tracked = ReturnType<typeof trackedSignals>;

export interface WorkspaceMatch {
  workspaceId: number;
  match: MatchResult;
  scored: NonNullable<ReturnType<typeof scoreMatch>>["scored"];
}

type ScoredFields = Parameters<typeof scoreMatch>[0];

export class IngestMatcher {
  private readonly index: TermIndex<{ workspaceId: number; term: TrackedTerm }>;
  private readonly tracked = new Map<number, Tracked>();
  /** Terms compiled (every workspace's, before deduplication). */
  readonly terms: number;

  constructor(workspaces: WorkspaceTerms[]) {
    const all: { text: string; value: { workspaceId: number; term: TrackedTerm } }[] = [];
    for (const ws of workspaces) {
      const t = trackedSignals(ws.keywords, ws.competitors);
      this.tracked.set(ws.workspaceId, t);
      for (const term of t.terms) all.push({ text: term.text, value: { workspaceId: ws.workspaceId, term } });
    }
    this.terms = all.length;
    this.index = new TermIndex(all);
  }

  /** Patterns the last match tested (the index's candidates). */
  get lastTested(): number {
    return this.index.lastTested;
  }

  /** Distinct term texts in the index. */
  get distinctTerms(): number {
    return this.index.size;
  }

  /** Whether the workspace has active terms in this matcher. */
  tracks(workspaceId: number): boolean {
    return this.tracked.has(workspaceId);
  }

  /** Every workspace for which the item counts as a match, with its matches and score. */
  match(item: ScoredFields, now: number): WorkspaceMatch[] {
    const hits = new Map<number, TrackedTerm[]>();
    for (const { workspaceId, term } of this.index.find(item)) {
      const list = hits.get(workspaceId);
      if (list) list.push(term);
      else hits.set(workspaceId, [term]);
    }
    const out: WorkspaceMatch[] = [];
    for (const [workspaceId, terms] of hits) {
      const tracked = this.tracked.get(workspaceId)!;
      const result = scoreMatch(item, countedMatch(terms), tracked, now);
      if (result) out.push({ workspaceId, match: result.match, scored: result.scored });
    }
    return out;
  }

  /** The score of an item a workspace stores but no longer matches (no term signals), as re-matching gives it. */
  trackedOf(workspaceId: number): Tracked | undefined {
    return this.tracked.get(workspaceId);
  }
}
