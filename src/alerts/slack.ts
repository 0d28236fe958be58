// The `slack` format (docs/alerts.md): Slack's incoming-webhook body, `text` (the notification's fallback) and
// `blocks` (Block Kit) with the post's title (a comment's thread title and first lines), subreddit, priority, score
// reasons and the thread's link.
import { threadUrl } from "../forum/thread-url";
import type { AlertEvent } from "./events";

/**
 * Slack's mrkdwn treats &, < and > as control characters (`<!channel>` notifies everyone, `<url|text>` is a link),
 * in the notification's `text` as in the blocks; everything else is shown as written.
 */
const escapeMrkdwn = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Slack limits a section's text to 3000 characters. */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The first lines of a comment, as a Slack quote: at most 3 lines and 600 characters. */
export function firstLines(body: string): string {
  const lines = body
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .slice(0, 3);
  return clip(lines.join("\n"), 600);
}

interface Announced {
  what: "post" | "comment";
  title: string;
  subreddit: string;
  priority: string | null;
  urgency: string | null;
  reasons: string[];
  /** The thread's (or the comment's) absolute link. */
  link: string;
  /** A comment's first lines, shown under the thread's title. */
  excerpt?: string;
}

function announced(event: Exclude<AlertEvent, { type: "webhook.test" }>): Announced {
  if (event.type === "comment.created") {
    const comment = event.data.comment;
    return {
      what: "comment",
      title: comment.thread_title || `a thread in r/${comment.subreddit}`,
      subreddit: comment.subreddit,
      priority: comment.priority,
      urgency: comment.urgency,
      reasons: comment.score_reasons,
      link: threadUrl(comment.permalink),
      excerpt: firstLines(comment.body),
    };
  }
  const post = event.data.post;
  // The monitored thread on the forum's public site: the JSON event's `url` for a text post. Not `url` itself,
  // which for a link post is the article it links to; not FORUM_BASE_URL, where personas publish.
  const link = threadUrl(post.permalink);
  const { title, subreddit, priority, urgency } = post;
  return { what: "post", title, subreddit, priority, urgency, reasons: post.score_reasons, link };
}

export function slackBody(event: AlertEvent): { text: string; blocks: unknown[] } {
  if (event.type === "webhook.test") {
    const text = "threadwatch: test delivery. This channel will hear about new posts worth answering.";
    return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
  }
  const item = announced(event);
  const { link } = item;
  const priority = item.priority ?? "none";
  const title = clip(escapeMrkdwn(item.title), 500);
  const reasons = item.reasons.length
    ? item.reasons.map((r) => `• ${escapeMrkdwn(r)}`).join("\n")
    : "• (no reasons recorded)";
  const where = `r/${escapeMrkdwn(item.subreddit)}`;
  const quote = item.excerpt
    ? [
        {
          type: "section",
          text: { type: "mrkdwn", text: clip(`>${escapeMrkdwn(item.excerpt).replace(/\n/g, "\n>")}`, 3000) },
        },
      ]
    : [];
  return {
    text:
      item.what === "comment"
        ? `New ${priority}-priority comment in ${where} on ${escapeMrkdwn(item.title)}: ${escapeMrkdwn(item.excerpt ?? "")} ${link}`
        : `New ${priority}-priority post in ${where}: ${escapeMrkdwn(item.title)} ${link}`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*<${link}|${title}>*` } },
      ...quote,
      {
        type: "context",
        elements: [
          { type: "mrkdwn", text: item.what === "comment" ? `comment in ${where}` : where },
          { type: "mrkdwn", text: `priority *${priority}*` },
          { type: "mrkdwn", text: item.urgency === "urgent" ? "urgent" : "not urgent" },
        ],
      },
      { type: "section", text: { type: "mrkdwn", text: clip(`*Why*\n${reasons}`, 3000) } },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            text: { type: "plain_text", text: item.what === "comment" ? "Open the comment" : "Open the thread" },
            url: link,
          },
        ],
      },
    ],
  };
}
