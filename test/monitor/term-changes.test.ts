// What a change to a keyword queues, whichever door made it. The console's edit form sends the keyword's text
// with every change (the text box is always there), the API's PATCH only the fields given; the same change
// (switching a keyword off) must queue the same messages: the re-match and the backfill of new terms (which
// finds none then), and no new measurement.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workspaceDb } from "../../src/db/client";
import type { Env } from "../../src/env";
import {
  createTrackedCompetitor,
  createTrackedKeyword,
  deleteTrackedCompetitor,
  deleteTrackedKeyword,
  updateTrackedKeyword,
} from "../../src/monitor/term-changes";
import { createTestWorkspace, recordingMonitorQueue } from "../helpers/api";

/** The test env with metrics credentials and a monitor queue that records what is sent to it. */
function recordingEnv() {
  const { queue, sent } = recordingMonitorQueue();
  const withMetrics = {
    ...env,
    DATAFORSEO_LOGIN: "dfs-login",
    DATAFORSEO_PASSWORD: "dfs-password",
    MONITOR_QUEUE: queue,
  } as unknown as Env;
  return { env: withMetrics, sent, types: () => sent.map((m) => m.type) };
}

describe("keyword changes: what is queued", () => {
  it("switching a keyword off or on queues the re-match only, with the console's form values as with the API's patch", async () => {
    const ws = await createTestWorkspace("term changes");
    const w = workspaceDb(env, ws.id);
    const created = recordingEnv();
    const keyword = await createTrackedKeyword(created.env, w, { keyword: "cold outreach", is_ambiguous: false });
    expect(created.types()).toEqual(["monitor.rematch", "monitor.pass", "monitor.metrics"]);

    // The API: PATCH /keywords/:id {"active": false}.
    const api = recordingEnv();
    await updateTrackedKeyword(api.env, w, keyword.id, { active: false });
    expect(api.types()).toEqual(["monitor.rematch", "monitor.pass"]);

    // The console: the edit form's values, the unchanged text included.
    const console = recordingEnv();
    await updateTrackedKeyword(console.env, w, keyword.id, {
      keyword: "cold outreach",
      active: true,
      is_ambiguous: false,
    });
    expect(console.types()).toEqual(["monitor.rematch", "monitor.pass"]);

    // A new text is measured again, whichever door sends it.
    const renamed = recordingEnv();
    await updateTrackedKeyword(renamed.env, w, keyword.id, { keyword: "cold email outreach", active: true });
    expect(renamed.types()).toEqual(["monitor.rematch", "monitor.pass", "monitor.metrics"]);
    expect(renamed.sent[2]).toMatchObject({ workspace_id: ws.id, keyword_ids: [keyword.id] });

    // No such keyword: nothing is queued.
    const missing = recordingEnv();
    expect(await updateTrackedKeyword(missing.env, w, keyword.id + 1000, { keyword: "x y" })).toBeUndefined();
    expect(missing.sent).toEqual([]);
  });

  it("deleting a keyword or a competitor queues the re-match (an ambiguous term may have had its context from it)", async () => {
    const ws = await createTestWorkspace("term deletes");
    const w = workspaceDb(env, ws.id);
    const keyword = await createTrackedKeyword(recordingEnv().env, w, { keyword: "inbox zero" });
    const competitor = await createTrackedCompetitor(recordingEnv().env, w, { name: "Superhuman" });
    const deleted = recordingEnv();
    expect(await deleteTrackedKeyword(deleted.env, w, keyword.id)).toBe(true);
    expect(await deleteTrackedCompetitor(deleted.env, w, competitor.id)).toBe(true);
    expect(deleted.sent).toEqual([
      { type: "monitor.rematch", workspace_id: ws.id, after_post_id: 0 },
      { type: "monitor.pass", workspace_id: ws.id },
      { type: "monitor.rematch", workspace_id: ws.id, after_post_id: 0 },
      { type: "monitor.pass", workspace_id: ws.id },
    ]);
    // Already gone: false, and nothing is queued.
    const again = recordingEnv();
    expect(await deleteTrackedKeyword(again.env, w, keyword.id)).toBe(false);
    expect(await deleteTrackedCompetitor(again.env, w, competitor.id)).toBe(false);
    expect(again.sent).toEqual([]);
  });
});
