// The t3 links of the recorded forum answers (../shared/corpus/reddit: PRAW's recorded sessions, go-reddit's
// test data), for the local forum of `npm run dev:forum` and the monitoring benchmark's matcher texts.
import fs from "node:fs";
import path from "node:path";

/** The t3 links of every recorded listing under the corpus's reddit/ folder, re-dated into the last three days. */
export function recordedLinks(dir) {
  const links = [];
  if (!fs.existsSync(dir)) return links;
  const now = Math.floor(Date.now() / 1000);
  const files = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".json"));
  for (const f of files) {
    let doc;
    try {
      doc = JSON.parse(fs.readFileSync(path.join(dir, String(f)), "utf8"));
    } catch {
      continue;
    }
    const bodies = doc.interactions
      ? doc.interactions.map((i) => {
          try {
            return JSON.parse(i.response?.body?.string ?? "null");
          } catch {
            return null;
          }
        })
      : [doc];
    for (const body of bodies) {
      for (const child of body?.data?.children ?? []) {
        const d = child?.data;
        if (child?.kind !== "t3" || typeof d?.id !== "string" || typeof d.title !== "string") continue;
        links.push({
          id: d.id,
          title: d.title,
          selftext: typeof d.selftext === "string" ? d.selftext : "",
          subreddit: d.subreddit ?? "redditdev",
          author: d.author ?? "[deleted]",
          url: typeof d.url === "string" && d.url.startsWith("http") ? d.url : undefined,
          score: d.score ?? 0,
          num_comments: d.num_comments ?? 0,
          created_utc: now - ((links.length * 2_357) % (3 * 86_400)),
        });
      }
    }
  }
  return links;
}
