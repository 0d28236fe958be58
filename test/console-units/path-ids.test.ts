// The console's form actions read ids in their paths by the API's rule (decimal digits only, src/http/openapi.ts):
// `/api/v1/keywords/010` and `/api/v1/keywords/10.0` change nothing (400), so `/app/keywords/010/delete` must
// not delete keyword 10 either (it did: the console read ids with Number()).
import { beforeAll, describe, expect, it } from "vitest";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { type FormSession, postForm, signedIn } from "../helpers/console-client";

let ws: TestWorkspace;
let session: FormSession;
beforeAll(async () => {
  ws = await createTestWorkspace("console path ids");
  session = await signedIn(ws.writeKey);
});

const keywordsOf = async () =>
  (await callJson("/api/v1/keywords", { key: ws.readKey })).body.data as { id: number; active: boolean }[];

describe("console form actions read path ids as the API does", () => {
  it("a keyword's id written 010 or 10.0 is no id: nothing is changed or deleted, as through the API", async () => {
    const made = await callJson("/api/v1/keywords", {
      key: ws.writeKey,
      method: "POST",
      body: { keyword: "path id check" },
    });
    const id = made.body.id as number;
    const forms = [`0${id}`, `${id}.0`];
    if (id % 10 === 0) forms.push(`${id / 10}e1`);

    for (const written of forms) {
      // The API refuses the id outright.
      const api = await callJson(`/api/v1/keywords/${written}`, {
        key: ws.writeKey,
        method: "PATCH",
        body: { active: false },
      });
      expect([written, api.status]).toEqual([written, 400]);

      const edit = await postForm(`/app/keywords/${written}`, session, { keyword: "path id check", active: "false" });
      expect([written, edit.status]).toEqual([written, 404]);
      const remove = await postForm(`/app/keywords/${written}/delete`, session, {});
      expect([written, remove.status]).toEqual([written, 404]);
      expect((await keywordsOf()).find((k) => k.id === id)).toMatchObject({ active: true });
    }

    // Its plain id still works.
    expect((await postForm(`/app/keywords/${id}/delete`, session, {})).status).toBe(303);
    expect((await keywordsOf()).find((k) => k.id === id)).toBeUndefined();
  });

  it("a sync config's and a key's ids are read the same way", async () => {
    const config = await callJson("/api/v1/actions/blog-subreddit-syncs", {
      key: ws.writeKey,
      method: "POST",
      body: { blog_url: "https://blog.example/", subreddit: "r/pathids", max_posts: 5 },
    });
    const configId = config.body.id as number;
    const change = { blog_url: "https://blog.example/", subreddit: "r/pathids", max_posts: "7", active: "true" };
    expect((await postForm(`/app/syncs/0${configId}`, session, change)).status).toBe(404);
    const stored = await callJson(`/api/v1/actions/blog-subreddit-syncs/${configId}`, { key: ws.readKey });
    expect(stored.body.max_posts).toBe(5);
    expect((await postForm(`/app/syncs/${configId}`, session, change)).status).toBe(303);

    type Key = { id: number; name: string; revoked_at: string | null };
    const keys = async () =>
      (await callJson(`/admin/v1/workspaces/${ws.id}/keys`, { key: "test-admin-token" })).body.data as Key[];
    const read = (await keys()).find((k) => k.name === "read")!;
    expect((await postForm(`/app/settings/api/keys/0${read.id}/revoke`, session, {})).status).toBe(404);
    expect((await keys()).find((k) => k.id === read.id)!.revoked_at).toBeNull();
  });
});
