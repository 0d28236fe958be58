// Where the ingester hands over the comments each workspace matched (docs/monitoring.md, "Comments"). The
// comments' storage (their table, score and `comment.created` alerts) plugs in here: this is the one call the
// comment walk makes per workspace and round. Without that storage a matched comment is counted and logged,
// not kept.
import type { Env } from "../env";
import type { ForumComment } from "../forum/app-client";
import { log } from "../lib/log";
import type { WorkspaceMatch } from "./ingest-matcher";

/** Stores the comments a workspace matched; answers how many were stored. */
export async function storeMatchedComments(
  _env: Env,
  workspaceId: number,
  matched: { comment: ForumComment; match: WorkspaceMatch }[],
): Promise<number> {
  log("info", "matched comments not stored: no comment storage", { workspaceId, comments: matched.length });
  return 0;
}
