// The console's forms answer with the changed state and a short confirmation (post/redirect/get), and
// Settings > API lists the keys that still open the API first, revoked and expired ones folded away.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { type FormSession, getPage, postForm, signedIn } from "../helpers/console-client";

let ws: TestWorkspace;
let session: FormSession;
beforeAll(async () => {
  ws = await createTestWorkspace("console confirmations");
  session = await signedIn(ws.writeKey);
});

/** Posts the form, expects the redirect to `?done=<done>` and returns the page it leads to. */
async function confirmed(path: string, fields: Record<string, string>, done: string) {
  const res = await postForm(path, session, fields);
  expect(res.status).toBe(303);
  const location = res.headers.get("location")!;
  expect(new URL(location, "http://x").searchParams.get("done")).toBe(done);
  return (await getPage(location, session.cookie)).text();
}

describe("console form confirmations", () => {
  it("keywords: added, saved and deleted say so on the page they lead to", async () => {
    const added = await confirmed("/app/keywords", { keyword: "confirm me" }, "added");
    expect(added).toContain("The keyword is added");
    const id = (await callJson("/api/v1/keywords", { key: ws.readKey })).body.data.find(
      (k: { keyword: string }) => k.keyword === "confirm me",
    ).id as number;
    expect(await confirmed(`/app/keywords/${id}`, { keyword: "confirm me too", active: "true" }, "saved")).toContain(
      "The keyword is saved",
    );
    expect(await confirmed(`/app/keywords/${id}/delete`, {}, "deleted")).toContain("The keyword is deleted");
  });

  it("inbox triage confirms what it changed", async () => {
    await env.DB.prepare(
      "INSERT INTO posts (workspace_id, forum_id, subreddit, title, author, url, permalink, created_utc) VALUES (?, 't3_confirm', 'queues', 'Which queue?', 'someone', 'https://forum.example/r/queues/comments/confirm/', '/r/queues/comments/confirm/', '2026-11-01T00:00:00.000Z')",
    )
      .bind(ws.id)
      .run();
    const post = (await callJson("/api/v1/posts", { key: ws.readKey })).body.data[0] as { id: number };
    const page = await confirmed(`/app/posts/${post.id}`, { is_answered: "true", back: "/app/posts" }, "is_answered");
    expect(page).toContain("Marked answered.");
  });

  it("Settings > API: active keys first, revoked and expired ones in a folded list", async () => {
    const made = await postForm("/app/settings/api/keys", session, { name: "to revoke", scope: "read" });
    expect(made.status).toBe(200);
    const keys = (await env.DB.prepare("SELECT id, name FROM api_keys WHERE workspace_id = ?").bind(ws.id).all())
      .results as { id: number; name: string }[];
    const doomed = keys.find((k) => k.name === "to revoke")!;
    const expired = keys.find((k) => k.id !== doomed.id && k.id !== keys[0]!.id) ?? keys[1]!;
    await env.DB.prepare("UPDATE api_keys SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(expired.id)
      .run();
    const page = await confirmed(`/app/settings/api/keys/${doomed.id}/revoke`, {}, "revoked");
    expect(page).toContain("Key revoked");
    const [active, folded] = page.split('<details class="inactive-keys">');
    expect(folded).toBeDefined();
    expect(active).toContain("Active keys (");
    expect(active).not.toContain(`id="key-${doomed.id}"`);
    expect(active).not.toContain(`id="key-${expired.id}"`);
    expect(folded).toContain("Revoked and expired keys (2)");
    expect(folded).toContain(`id="key-${doomed.id}"`);
    expect(folded).toContain(`id="key-${expired.id}"`);
  });
});
