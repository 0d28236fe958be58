// The Slack body's "Open the thread" link (src/alerts/slack.ts): the monitored thread on the forum's public
// site, whatever the post links to, never the forum personas publish on.
import { describe, expect, it } from "vitest";
import type { AlertEvent } from "../../src/alerts/events";
import { slackBody } from "../../src/alerts/slack";
import type { PostView } from "../../src/db/posts";

const event = (post: Partial<PostView>): AlertEvent =>
  ({
    id: "evt_1",
    type: "post.created",
    created_at: "2026-12-01T00:00:00.000Z",
    data: {
      post: {
        title: "Which help desk?",
        subreddit: "SaaS",
        priority: "high",
        urgency: "not_urgent",
        score_reasons: ['matched keyword "help desk"'],
        ...post,
      },
    },
  }) as AlertEvent;

const linkOf = (body: ReturnType<typeof slackBody>) =>
  (body.blocks.at(-1) as { elements: { url: string }[] }).elements[0]!.url;

describe("the Slack alert's link", () => {
  it("is the JSON event's url for a text post", () => {
    const permalink = "/r/SaaS/comments/1h2k3l/which_help_desk/";
    const body = slackBody(event({ permalink, url: `https://www.reddit.com${permalink}` }));
    expect(linkOf(body)).toBe(`https://www.reddit.com${permalink}`);
    expect(body.text).toContain(`https://www.reddit.com${permalink}`);
  });

  it("is the thread, not the article, for a link post", () => {
    const permalink = "/r/SaaS/comments/9z8y7x/our_pricing_page/";
    const body = slackBody(event({ permalink, url: "https://example.com/pricing" }));
    expect(linkOf(body)).toBe(`https://www.reddit.com${permalink}`);
    expect(JSON.stringify(body)).not.toContain("example.com");
  });
});
