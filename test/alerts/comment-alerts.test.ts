// comment.created deliveries (docs/alerts.md): a comment newly stored by the ingester's store function, at or above
// a webhook's min_priority, through the real alerts queue to real local receivers, in JSON and in Slack's format.
import { describe, expect, it } from "vitest";
import { createWebhook, deliveriesOf, eventually, newReceiver, verifyAsDocumented } from "../helpers/alerts";
import { callJson } from "../helpers/api";
import { forumComment, ingestComments } from "../helpers/comments";
import { trackingWorkspace } from "../helpers/monitor";

const settled = async (key: string, hookId: number, n: number) =>
  eventually(async () => {
    const page = await deliveriesOf(key, hookId);
    expect(page.count).toBe(n);
    expect(page.data.every((d) => d.status !== "pending")).toBe(true);
    return page;
  });

describe("comment.created", () => {
  it("one signed JSON event per new comment at or above min_priority, the comment as GET /comments shows it", async () => {
    const ws = await trackingWorkspace("comment alerts", ["help desk"]);
    const receiver = newReceiver("comment-json");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url, min_priority: "medium" });
    const comments = [
      // 55 points: high. 25: medium. 15: low (no question, no intent).
      forumComment("ah", "Can anyone recommend a help desk?", { link_title: "Support tools" }),
      forumComment("am", "Is this help desk any good?"),
      forumComment("al", "our help desk notes"),
    ];
    expect(await ingestComments(ws.id, comments)).toMatchObject({ created: 3 });

    const page = await settled(ws.readKey, hook.id, 2);
    expect(page.data.map((d) => [d.type, d.status])).toEqual([
      ["comment.created", "delivered"],
      ["comment.created", "delivered"],
    ]);
    const received = await receiver.deliveries();
    const listed = (await callJson("/api/v1/comments", { key: ws.readKey })).body.data as { forum_id: string }[];
    const bodies = received.map((got) => {
      expect(verifyAsDocumented(got.body, got.headers["threadwatch-signature"]!, hook.secret)).toBe(true);
      return JSON.parse(got.body);
    });
    expect(bodies.map((b) => b.data.comment.forum_id).sort()).toEqual(["ah", "am"]);
    for (const body of bodies) {
      expect(body.type).toBe("comment.created");
      expect(body.id).toMatch(/^evt_/);
      expect(body.data.comment).toEqual(listed.find((c) => c.forum_id === body.data.comment.forum_id));
    }

    // Seen again: updated, never announced again (a delivery row is written before the store returns).
    await ingestComments(ws.id, comments);
    expect((await deliveriesOf(ws.readKey, hook.id)).count).toBe(2);
  });

  it("a Slack body with the thread's title and the comment's first lines", async () => {
    const ws = await trackingWorkspace("comment slack", ["help desk"]);
    const receiver = newReceiver("comment-slack");
    const hook = await createWebhook(ws.writeKey, { url: receiver.url, format: "slack", min_priority: "low" });
    const body = "Can anyone recommend a help desk?\n\nWe are 5 people.\nBudget is small.\nFourth line.";
    await ingestComments(ws.id, [forumComment("sl", body, { link_title: "Support <tools> for tiny teams" })]);
    await settled(ws.readKey, hook.id, 1);
    const [got] = await receiver.deliveries();
    const slack = JSON.parse(got!.body) as { text: string; blocks: { text?: { text: string } }[] };
    expect(slack.text).toContain("comment in r/testing on Support &lt;tools&gt; for tiny teams");
    const texts = slack.blocks.map((b) => b.text?.text ?? "");
    expect(texts[0]).toContain("Support &lt;tools&gt; for tiny teams");
    expect(texts[1]).toBe(">Can anyone recommend a help desk?\n>We are 5 people.\n>Budget is small.");
    expect(JSON.stringify(slack)).toContain("https://www.reddit.com/r/testing/comments/thread1/a_thread/sl/");
  });
});
