// Scoring: each paragraph of prose scores by its text (one, one per comma-separated part, one per 100
// characters up to three) and hands its score up to five ancestors, less at each level; a container's score
// is then discounted by its link density. The best five outside comment sections are the candidates.

import { commaCount, type ElementNode, textLength } from "../html-tree";
import { ancestors, hasAncestorNode, linkDensity } from "../predicates";
import { type Flags, initialScore } from "./class-weight";
import { inCommentSection } from "./comments";

export interface Scored {
  scores: Map<ElementNode, number>;
  /** The best candidates, best first (at most five). */
  top: ElementNode[];
}

export function scoreCandidates(toScore: ElementNode[], body: ElementNode, flags: Flags): Scored {
  const scores = new Map<ElementNode, number>();
  const candidates: ElementNode[] = [];
  for (const el of toScore) {
    if (!el.parent) continue;
    // The text's length with whitespace runs counted once (cached per element; no string is built).
    const length = textLength(el);
    if (length < 25) continue;
    const up = ancestors(el, 5);
    if (!up.length) continue;
    // One for the paragraph, one per comma-separated part, one per 100 characters (up to three).
    const contentScore = 2 + commaCount(el) + Math.min(Math.floor(length / 100), 3);
    up.forEach((ancestor, level) => {
      if (!scores.has(ancestor)) {
        scores.set(ancestor, initialScore(ancestor, flags));
        candidates.push(ancestor);
      }
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(ancestor, scores.get(ancestor)! + contentScore / divider);
    });
  }
  // Each candidate with its final score, sorted on that (read from the map once each, not at every comparison
  // of the sort; the sort is stable, so the order is the same).
  const ranked: { candidate: ElementNode; score: number }[] = [];
  for (const candidate of candidates) {
    const score = scores.get(candidate)! * (1 - linkDensity(candidate));
    scores.set(candidate, score);
    if (candidate === body || hasAncestorNode(candidate, body)) ranked.push({ candidate, score });
  }
  ranked.sort((a, b) => b.score - a.score);
  // Cleaning drops reader comments from the article (prepArticle), so a candidate inside a comment section
  // could only come out empty: one is passed over. Comments survive the walk when they hold much prose.
  const top: ElementNode[] = [];
  for (const { candidate } of ranked) {
    if (top.length === 5) break;
    if (!inCommentSection(candidate, body)) top.push(candidate);
  }
  return { scores, top };
}
