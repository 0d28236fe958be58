// The local forum as the ingester meets it: ids allocated in order at a set rate on a clock tests can stop,
// advance and accelerate; /r/all/new and /r/all/comments showing the newest visible items; /api/info with
// mixed kinds in the order asked; items visible late or never; a search that lags and stops at 250.
import { describe, expect, it } from "vitest";
import { localForum, unique } from "../helpers/forum";
import { apiJson, appToken } from "./forum-helpers";

/** A client whose clock stands still (it moves only when the test advances it). */
async function frozenWorld(options: Record<string, unknown> = {}) {
  const { client, token } = await appToken({ clock: { factor: 1e-9 }, ...options });
  const advance = (s: number) => localForum.clock(client.id, { advance_s: s });
  return { id: client.id, token, advance };
}

const idNumber = (name: string) => Number.parseInt(name.replace(/^t[13]_/, ""), 36);

describe("ids in order at the forum's rate", () => {
  it("allocates post and comment ids in order at the configured rate; a minute at the peak is 1,450 and 7,500", async () => {
    const w = await frozenWorld({
      posts: { late_share: 0, never_share: 0 },
      comments: { late_share: 0, never_share: 0 },
    });
    await w.advance(1);
    const before = await localForum.clientStats(w.id);
    await w.advance(60);
    const after = await localForum.clientStats(w.id);
    const grown = (k: "t3" | "t1") =>
      Number.parseInt(after.newest[k] ?? "0", 36) - Number.parseInt(before.newest[k] ?? "0", 36);
    expect(grown("t3")).toBe(1450);
    expect(grown("t1")).toBe(7500);
    const newest = await apiJson(w.token, "/r/all/new?limit=100");
    const ids = newest.data.children.map((c: any) => idNumber(c.data.id));
    expect(ids).toHaveLength(100);
    expect(ids[0]).toBe(Number.parseInt(after.newest.t3!, 36));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const comments = await apiJson(w.token, "/r/all/comments?limit=100");
    expect(comments.data.children).toHaveLength(100);
    expect(comments.data.children.every((c: any) => c.kind === "t1" && c.data.link_id.startsWith("t3_"))).toBe(true);
  });

  it("runs faster on request: an acceleration of 600 makes ten forum minutes of ids in a second", async () => {
    const { client, token } = await appToken({ posts: { per_minute: 60 }, comments: { per_minute: 0 } });
    await localForum.clock(client.id, { factor: 600 });
    await new Promise((r) => setTimeout(r, 200));
    const start = (await localForum.clientStats(client.id)).newest.t3!;
    const startedAt = Date.now();
    await new Promise((r) => setTimeout(r, 1_000));
    const end = (await localForum.clientStats(client.id)).newest.t3!;
    const elapsed = (Date.now() - startedAt) / 1000;
    const made = Number.parseInt(end, 36) - Number.parseInt(start, 36);
    // 60 a forum minute, 600 forum seconds a real one: 600 a second, give or take the requests' time.
    expect(made).toBeGreaterThanOrEqual(Math.floor(540 * elapsed));
    expect(made).toBeLessThanOrEqual(Math.ceil(600 * (elapsed + 0.5)));
    expect((await apiJson(token, "/r/all/new?limit=5")).data.children).toHaveLength(5);
  });

  it("plants posts and comments with given text at the next ids, among the generated ones", async () => {
    const w = await frozenWorld({ posts: { per_minute: 1450 } });
    await w.advance(10);
    const newest = (await localForum.clientStats(w.id)).newest.t3!;
    const [post, comment] = await localForum.plant(w.id, [
      { title: "Any tool for invoice reminders?", selftext: "We use spreadsheets", subreddit: "smallbusiness" },
      { kind: "t1", body: "Try a reminder tool", subreddit: "smallbusiness" },
    ]);
    expect(idNumber(post!.name)).toBe(Number.parseInt(newest, 36) + 1);
    const info = await apiJson(w.token, `/api/info?id=${post!.name},${comment!.name}`);
    expect(info.data.children.map((c: any) => [c.kind, c.data.title ?? c.data.body])).toEqual([
      ["t3", "Any tool for invoice reminders?"],
      ["t1", "Try a reminder tool"],
    ]);
    expect(info.data.children[1].data.link_id).toBe(post!.name);
  });
});

describe("/api/info", () => {
  it("answers posts and comments mixed, in the order asked, dropping missing and not-yet-visible ids", async () => {
    const w = await frozenWorld({ posts: { per_minute: 0 }, comments: { per_minute: 0 } });
    const [a, late, never, c] = await localForum.plant(w.id, [
      { title: "first" },
      { title: "late", visible_after_s: 120 },
      { title: "never", never_visible: true },
      { kind: "t1", body: "a comment" },
    ]);
    const ids = [c!.name, "t3_zzzzzzz", never!.name, late!.name, a!.name];
    const first = await apiJson(w.token, `/api/info?id=${ids.join(",")}&raw_json=1`);
    expect(first.data.children.map((x: any) => x.data.name)).toEqual([c!.name, a!.name]);
    expect(first.data.after).toBeNull();
    await w.advance(121);
    const later = await apiJson(w.token, `/api/info?id=${ids.join(",")}`);
    expect(later.data.children.map((x: any) => x.data.name)).toEqual([c!.name, late!.name, a!.name]);
    const tooMany = Array.from({ length: 101 }, () => a!.name).join(",");
    expect((await apiJson(w.token, `/api/info?id=${tooMany}`)).data.children).toEqual([]);
    expect((await localForum.clientStats(w.id)).infoIds.at(-1)).toHaveLength(101);
  });

  it("generated items come out late or never at the configured shares; /r/all/new shows only the visible ones", async () => {
    const w = await frozenWorld({
      posts: { per_minute: 6_000, late_share: 0.3, late_delay_s: [60, 120], never_share: 0.1 },
      comments: { per_minute: 0 },
    });
    await w.advance(1);
    const newest = Number.parseInt((await localForum.clientStats(w.id)).newest.t3!, 36);
    const names = Array.from({ length: 100 }, (_, i) => `t3_${(newest - i).toString(36)}`);
    const now = (await apiJson(w.token, `/api/info?id=${names.join(",")}`)).data.children.length;
    expect(now).toBeGreaterThan(40);
    expect(now).toBeLessThan(80);
    await w.advance(121);
    const later = (await apiJson(w.token, `/api/info?id=${names.join(",")}`)).data.children.length;
    expect(later).toBeGreaterThan(now);
    expect(later).toBeLessThan(100);
    const listed = await apiJson(w.token, "/r/all/new?limit=100");
    const all = new Set(listed.data.children.map((x: any) => x.data.name));
    expect(all.size).toBe(100);
  });
});

describe("search", () => {
  it("finds a post only some time after it came out, and stops at 250 results", async () => {
    const w = await frozenWorld({ search_lag_s: 300, posts: { per_minute: 0 }, comments: { per_minute: 0 } });
    const term = unique("widget");
    await localForum.plant(
      w.id,
      Array.from({ length: 260 }, (_, i) => ({ title: `Question ${i} about ${term}`, selftext: "any advice?" })),
    );
    const search = (after = "") =>
      apiJson(w.token, `/search?q=${encodeURIComponent(`"${term}"`)}&sort=new&t=week&limit=100${after}`);
    expect((await search()).data.children).toEqual([]);
    await w.advance(301);
    let seen = 0;
    let after: string | null = "";
    for (let page = 0; page < 5 && after !== null; page++) {
      const res: any = await search(after ? `&after=${after}` : "");
      seen += res.data.children.length;
      after = res.data.after;
    }
    expect(seen).toBe(250);
    expect((await localForum.clientStats(w.id)).searches.length).toBe(4);
  });
});
