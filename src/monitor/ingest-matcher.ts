// The ingester's matcher (docs/monitoring.md, "The compiled matcher"): every workspace's active terms in one
// TermIndex, so finding what a post mentions costs the same for 10 workspaces or 10,000. Whether it is stored,
// and with which matches, is still each workspace's decideMatch (decide.ts), the one decision every path makes:
// this only finds, once for all, which workspaces' terms an item contains, and hands each workspace its own
// hits (values of its rules' `compiled`), so subreddit targeting and exclusions apply as everywhere. Pure.
import type { WorkspaceTerms } from "../db/ingest";
import { decideMatch, type MatchItem, type TargetedTerm, trackedTerms, type WorkspaceRules } from "./decide";
import { type MatchResult, TermIndex } from "./match";

export interface WorkspaceMatch {
  workspaceId: number;
  match: MatchResult;
  /** The workspace's rules the decision read (the score reads their signals). */
  rules: WorkspaceRules;
}

type Hit = { workspaceId: number; term: TargetedTerm };

export class IngestMatcher {
  private readonly index: TermIndex<Hit>;
  private readonly rules = new Map<number, WorkspaceRules>();
  /** Terms compiled (every workspace's, before deduplication). */
  readonly terms: number;

  constructor(workspaces: WorkspaceTerms[]) {
    const all: { text: string; value: Hit }[] = [];
    for (const ws of workspaces) {
      const rules = trackedTerms(ws.keywords, ws.competitors, ws.exclusions);
      this.rules.set(ws.workspaceId, rules);
      for (const term of rules.compiled) all.push({ text: term.text, value: { workspaceId: ws.workspaceId, term } });
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

  /** The workspace's rules, when it has active terms in this matcher. */
  rulesOf(workspaceId: number): WorkspaceRules | undefined {
    return this.rules.get(workspaceId);
  }

  /** Every workspace that stores the item (decideMatch on its own hits), with its matches. */
  match(item: MatchItem): WorkspaceMatch[] {
    const hits = new Map<number, TargetedTerm[]>();
    for (const { workspaceId, term } of this.index.find({ title: item.title, selftext: item.body })) {
      const list = hits.get(workspaceId);
      if (list) list.push(term);
      else hits.set(workspaceId, [term]);
    }
    const out: WorkspaceMatch[] = [];
    for (const [workspaceId, terms] of hits) {
      const rules = this.rules.get(workspaceId)!;
      const decision = decideMatch(item, rules, terms);
      if (decision.stored) out.push({ workspaceId, match: decision.match, rules });
    }
    return out;
  }
}
