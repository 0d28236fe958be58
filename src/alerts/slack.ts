// The `slack` format (docs/alerts.md): Slack's incoming-webhook body, `text` (the notification's fallback) and
// `blocks` (Block Kit) with the post's title, subreddit, priority, score reasons and the thread's link; for a
// removed synced post its title, subreddit and what the visibility check found.
import { threadUrl } from "../forum/thread-url";
import type { AlertEvent } from "./events";

/**
 * Slack's mrkdwn treats &, < and > as control characters (`<!channel>` notifies everyone, `<url|text>` is a link),
 * in the notification's `text` as in the blocks; everything else is shown as written.
 */
const escapeMrkdwn = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Slack limits a section's text to 3000 characters. */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function slackBody(event: AlertEvent): { text: string; blocks: unknown[] } {
  if (event.type === "webhook.test") {
    const text = "threadwatch: test delivery. This channel will hear about new posts worth answering.";
    return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
  }
  if (event.type === "synced_post.removed") return removedBody(event.data);
  const post = event.data.post;
  // The monitored thread on the forum's public site: the JSON event's `url` for a text post. Not `url` itself,
  // which for a link post is the article it links to; not FORUM_BASE_URL, where personas publish.
  const link = threadUrl(post.permalink);
  const priority = post.priority ?? "none";
  const title = clip(escapeMrkdwn(post.title), 500);
  const reasons = post.score_reasons.length
    ? post.score_reasons.map((r) => `• ${escapeMrkdwn(r)}`).join("\n")
    : "• (no reasons recorded)";
  return {
    text: `New ${priority}-priority post in r/${escapeMrkdwn(post.subreddit)}: ${escapeMrkdwn(post.title)} ${link}`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*<${link}|${title}>*` } },
      {
        type: "context",
        elements: [
          { type: "mrkdwn", text: `r/${escapeMrkdwn(post.subreddit)}` },
          { type: "mrkdwn", text: `priority *${priority}*` },
          { type: "mrkdwn", text: post.urgency === "urgent" ? "urgent" : "not urgent" },
        ],
      },
      { type: "section", text: { type: "mrkdwn", text: clip(`*Why*\n${reasons}`, 3000) } },
      {
        type: "actions",
        elements: [{ type: "button", text: { type: "plain_text", text: "Open the thread" }, url: link }],
      },
    ],
  };
}

/** A published synced post a visitor no longer sees: its title, subreddit and what the check found. */
function removedBody(data: Extract<AlertEvent, { type: "synced_post.removed" }>["data"]) {
  const { synced_post: post, subreddit } = data;
  const title = clip(escapeMrkdwn(post.title), 500);
  const reason = escapeMrkdwn(post.visibility_reason ?? post.visibility ?? "not visible");
  const heading = data.url ? `*<${data.url}|${title}>*` : `*${title}*`;
  return {
    text: `A published post is ${post.visibility ?? "not visible"} in r/${escapeMrkdwn(subreddit)}: ${escapeMrkdwn(post.title)} (${reason})`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: heading } },
      {
        type: "context",
        elements: [
          { type: "mrkdwn", text: `r/${escapeMrkdwn(subreddit)}` },
          { type: "mrkdwn", text: `*${post.visibility ?? "not visible"}*` },
        ],
      },
      { type: "section", text: { type: "mrkdwn", text: clip(`*What the check found*\n${reason}`, 3000) } },
    ],
  };
}
