// The review page of a failed post says what leads out of `failed`: editing it, unless a submission of it went
// unanswered (it may be on the forum already, so it is not published again; the edit answers 409).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getPage, signedIn } from "../helpers/console-client";
import { addPost, scene } from "../helpers/publishing";

describe("the review page of a failed post", () => {
  it("tells a refused post's way back (an edit), and an unanswered one's reason to stay failed", async () => {
    const s = await scene();
    const refused = await addPost(s, {}, "failed");
    const unanswered = await addPost(s, {}, "failed");
    await env.DB.prepare("UPDATE synced_posts SET error = ?, submit_attempted_at = NULL WHERE id = ?")
      .bind("the forum refused the post: SUBREDDIT_NOTALLOWED", refused.id)
      .run();
    await env.DB.prepare("UPDATE synced_posts SET error = ?, submit_attempted_at = ? WHERE id = ?")
      .bind("publishing was given up after every retry", "2026-11-23T00:01:00.000Z", unanswered.id)
      .run();
    const page = async (postId: number) => {
      const path = `/app/syncs/${s.config.id}/items/${postId}`;
      const session = await signedIn(s.ws.readKey, path);
      return (await getPage(path, session.cookie)).text();
    };
    const first = await page(refused.id);
    expect(first).toContain("SUBREDDIT_NOTALLOWED");
    // In the console's words: its review page has the edit form the API's PATCH route stands for.
    expect(first).toContain("editing it on its review page makes it a draft again");
    expect(first).not.toContain("PATCH");
    const second = await page(unanswered.id);
    expect(second).toContain("it may be on the forum already and is not published again");
    expect(second).not.toContain("makes it a draft again");
  }, 60_000);
});
