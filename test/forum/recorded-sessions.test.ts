// The local forum against the forum's recorded answers: each answer of the stand-in has the keys and value
// types of the recorded answer it stands in for (test/fixtures/forum/recorded/, extracts of PRAW's and
// prawcore's recorded sessions and go-reddit's test data, each naming its source), so a stand-in that
// drifts from the forum's shapes fails here. The project's own parsers read the same extracts in their tests.
import { describe, expect, it } from "vitest";
import aboutRec from "../fixtures/forum/recorded/about.json";
import accessTokenRec from "../fixtures/forum/recorded/access_token.json";
import commentsRec from "../fixtures/forum/recorded/comments.json";
import errorsRec from "../fixtures/forum/recorded/errors.json";
import infoRec from "../fixtures/forum/recorded/info.json";
import flairRec from "../fixtures/forum/recorded/link_flair_v2.json";
import meRec from "../fixtures/forum/recorded/me.json";
import mediaRec from "../fixtures/forum/recorded/media_asset.json";
import newRec from "../fixtures/forum/recorded/new.json";
import requirementsRec from "../fixtures/forum/recorded/post_requirements.json";
import revokeRec from "../fixtures/forum/recorded/revoke_token.json";
import searchRec from "../fixtures/forum/recorded/search.json";
import submitRec from "../fixtures/forum/recorded/submit.json";
import submittedRec from "../fixtures/forum/recorded/submitted.json";
import uploadRec from "../fixtures/forum/recorded/upload.json";
import userAboutRec from "../fixtures/forum/recorded/user_about.json";
import { localForum } from "../helpers/forum";
import { api, apiJson, grant, postForm, tokenRequest } from "./forum-helpers";

type Recorded = { interactions: { source: string; status: number; headers: Record<string, string>; body: any }[] };
const body = (rec: Recorded, i = 0) => rec.interactions[i]!.body;

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * The differences between the shapes of `got` and `recorded`: keys one has and the other lacks, and values
 * of different types (null matches any type: the forum sends null for unset fields of every type), down to
 * `depth` levels of objects.
 */
function shapeDiff(got: any, recorded: any, depth = 2, at = "$"): string[] {
  const out: string[] = [];
  const g = kindOf(got);
  const r = kindOf(recorded);
  if (g === "null" || r === "null") return out;
  if (g !== r) return [`${at}: ${g}, recorded ${r}`];
  if (g === "array" && depth > 0 && got.length > 0 && recorded.length > 0)
    return shapeDiff(got[0], recorded[0], depth - 1, `${at}[0]`);
  if (g !== "object") return out;
  for (const k of Object.keys(recorded)) if (!(k in got)) out.push(`${at}.${k}: missing`);
  for (const k of Object.keys(got)) if (!(k in recorded)) out.push(`${at}.${k}: not recorded`);
  if (depth > 0)
    for (const k of Object.keys(recorded))
      if (k in got) out.push(...shapeDiff(got[k], recorded[k], depth - 1, `${at}.${k}`));
  return out;
}

/** The keys every child of a recorded listing has, and their types, as one object to compare with. */
function commonChild(children: { data: Record<string, unknown> }[]): Record<string, unknown> {
  const keys = Object.keys(children[0]!.data).filter((k) => children.every((c) => k in c.data));
  return Object.fromEntries(keys.map((k) => [k, children.find((c) => c.data[k] !== null)?.data[k] ?? null]));
}

const only = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

describe("the stand-in's answers have the recorded shapes", () => {
  it("the token endpoint: code, refresh and client_credentials grants, an invalid code, revoke", async () => {
    const { client, token } = await grant();
    // A permanent grant's answer (prawcore TestAuthorizer.test_authorize__with_permanent_grant).
    expect(shapeDiff(token, body(accessTokenRec, 3))).toEqual([]);
    const refreshed = await tokenRequest(client.basic, {
      grant_type: "refresh_token",
      refresh_token: token.refresh_token,
    });
    expect(shapeDiff(refreshed.body, body(accessTokenRec, 0))).toEqual([]);
    const app = await tokenRequest(client.basic, { grant_type: "client_credentials" });
    expect(shapeDiff(app.body, body(accessTokenRec, 2))).toEqual([]);
    const bad = await tokenRequest(client.basic, { grant_type: "authorization_code", code: "nope", redirect_uri: "x" });
    expect(bad).toEqual({ status: accessTokenRec.interactions[4]!.status, body: body(accessTokenRec, 4) });
    const revoked = await fetch(`${localForum.origins().www}/api/v1/revoke_token`, {
      method: "POST",
      headers: { authorization: client.basic },
      body: new URLSearchParams({ token: token.access_token }),
    });
    expect(revoked.status).toBe(revokeRec.interactions[0]!.status);
    expect(await revoked.text()).toBe(body(revokeRec));
  });

  it("the OAuth host's errors: 401 with an invalid token, 403 insufficient_scope, 429", async () => {
    const unauthorized = await api("not-a-token", "/api/v1/me");
    const rec401 = errorsRec.interactions[1]!;
    expect(unauthorized.status).toBe(rec401.status);
    expect(await unauthorized.json()).toEqual(rec401.body);
    expect(unauthorized.headers.get("www-authenticate")).toBe(rec401.headers["www-authenticate"]);
    const { token } = await grant({ scope: "read", client: { limit: 1 } });
    const forbidden = await api(token.access_token, "/api/v1/me");
    const rec403 = errorsRec.interactions[0]!;
    expect(forbidden.status).toBe(rec403.status);
    expect(forbidden.headers.get("www-authenticate")).toBe(rec403.headers["www-authenticate"]);
    const limited = await api(token.access_token, "/api/v1/me");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual(body(errorsRec, 2));
  });

  it("who am I, subreddit about, a visitor's view of a profile", async () => {
    const { username, token } = await grant();
    expect(shapeDiff(await apiJson(token.access_token, "/api/v1/me"), body(meRec))).toEqual([]);
    const sr = await localForum.subreddit();
    expect(shapeDiff(await apiJson(token.access_token, `/r/${sr}/about`), body(aboutRec))).toEqual([]);
    const profile = await (await fetch(`${localForum.origins().site}/user/${username}/about.json`)).json();
    expect(shapeDiff(profile, body(userAboutRec))).toEqual([]);
  });

  it("post requirements and link flair", async () => {
    const { token } = await grant();
    const sr = await localForum.subreddit({ flairs: [{ id: "f-1", text: "Question" }] });
    const req = await apiJson(token.access_token, `/api/v1/${sr}/post_requirements`);
    // go-reddit's key set (the newest), which holds the 2020 recording's too.
    expect(shapeDiff(req, body(requirementsRec, 1))).toEqual([]);
    expect(Object.keys(body(requirementsRec, 0)).filter((k) => !(k in req))).toEqual([]);
    expect(shapeDiff(await apiJson(token.access_token, `/r/${sr}/api/link_flair_v2`), body(flairRec))).toEqual([]);
  });

  it("submit: success, and the HTTP 400 validation refusal", async () => {
    const { token } = await grant();
    const sr = await localForum.subreddit({ requirements: { title_blacklisted_strings: ["dfgfdgfdgdf"] } });
    const form = { api_type: "json", kind: "self", sr, title: "Hello there", text: "body", validate_on_submit: "true" };
    const ok = await postForm(token.access_token, "/api/submit", form);
    expect(ok.status).toBe(submitRec.interactions[0]!.status);
    expect(shapeDiff(await ok.json(), body(submitRec, 0), 3)).toEqual([]);
    const refused = await postForm(token.access_token, "/api/submit", { ...form, title: "dfgfdgfdgdf" });
    const rec = submitRec.interactions[2]!;
    expect(refused.status).toBe(rec.status);
    expect(await refused.json()).toEqual(rec.body);
  });

  it("the media lease and the upload's answer", async () => {
    const { token } = await grant();
    const lease = await (
      await postForm(token.access_token, "/api/media/asset.json", { filepath: "test.gif", mimetype: "image/gif" })
    ).json<any>();
    expect(shapeDiff(lease, body(mediaRec), 3)).toEqual([]);
    const recordedFields = body(mediaRec).args.fields.map((f: any) => f.name);
    expect(lease.args.fields.map((f: any) => f.name).slice(0, recordedFields.length)).toEqual(recordedFields);
    const form = new FormData();
    for (const f of lease.args.fields) form.append(f.name, f.value);
    form.append("file", new File(["GIF89a"], "test.gif", { type: "image/gif" }));
    const res = await fetch(`http:${lease.args.action}`, { method: "POST", body: form });
    const rec = uploadRec.interactions[0]!;
    expect(res.status).toBe(rec.status);
    expect(res.headers.get("content-type")).toBe(rec.headers["content-type"]);
    expect(res.headers.get("location")).not.toBeNull();
    const tags = (xml: string) => [...xml.matchAll(/<(\w+)>/g)].map((m) => m[1]);
    expect(tags(await res.text())).toEqual(tags(rec.body));
  });

  it("listings: /r/all/new, /r/all/comments, /api/info, /search, the submitted list", async () => {
    const { client, username, token } = await grant({ client: { search_cap: null } });
    const sr = await localForum.subreddit();
    const submitted = await (
      await postForm(token.access_token, "/api/submit", {
        api_type: "json",
        kind: "self",
        sr,
        title: "Shape check",
        text: "x",
      })
    ).json<any>();
    const [comment] = await localForum.plant(client.id, [
      { kind: "t1", body: "a reply", link_id: submitted.json.data.name },
    ]);
    const newest = await apiJson(token.access_token, "/r/all/new?limit=3");
    const rec = body(newRec);
    expect(shapeDiff(only(newest.data, Object.keys(rec.data)), rec.data, 0)).toEqual([]);
    expect(Object.keys(rec.data).filter((k) => !(k in newest.data))).toEqual([]);
    expect(shapeDiff(newest.data.children[0].data, commonChild(rec.data.children), 1)).toEqual([]);
    const comments = await apiJson(token.access_token, "/r/all/comments?limit=3");
    const recComments = body(commentsRec)[1].data.children;
    expect(shapeDiff(comments.data.children[0].data, commonChild(recComments), 1)).toEqual([]);
    const info = await apiJson(token.access_token, `/api/info?id=${comment!.name},${submitted.json.data.name}`);
    expect(info.data.children.map((c: any) => c.kind)).toEqual(["t1", "t3"]);
    for (const k of Object.keys(body(infoRec).data)) expect(info.data).toHaveProperty(k);
    for (const k of Object.keys(body(submittedRec).data))
      expect(await apiJson(token.access_token, `/user/${username}/submitted`)).toHaveProperty(["data", k]);
    const search = await apiJson(
      token.access_token,
      `/search?q=${encodeURIComponent('"Shape check"')}&sort=new&limit=5`,
    );
    for (const k of Object.keys(body(searchRec).data)) expect(search.data).toHaveProperty(k);
    // The author's own view of a post: the recorded live posts' keys, in the recorded types.
    expect(shapeDiff(info.data.children[1].data, commonChild(rec.data.children), 1)).toEqual([]);
  });
});
