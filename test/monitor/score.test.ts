import { describe, expect, it } from "vitest";
import { scorePost } from "../../src/monitor/score";

// The three worked examples of docs/monitoring.md, computed at a fixed time.
const NOW = Date.parse("2026-11-24T12:00:00Z");
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString();

describe("the score (docs/monitoring.md worked examples)", () => {
  it("example 1: a fresh buying question naming a competitor, on a valuable keyword", () => {
    const r = scorePost(
      {
        title: "Looking for a Mailchimp alternative for email marketing?",
        selftext: "We send 20k emails a month.",
        permalink: "/r/marketing/comments/abc123/looking_for/",
        score: 3,
        numComments: 0,
        createdUtc: hoursAgo(2),
        keywords: [
          {
            text: "email marketing",
            searchVolume: 74_000,
            cpc: 14.2,
            serpForumPosition: 4,
            serpForumUrl: "https://www.reddit.com/r/other/comments/zzz/",
          },
        ],
        competitors: ["Mailchimp"],
      },
      NOW,
    );
    // 30 intent + 10 question + 20 competitor + 15 volume + 10 cpc + 5 forum ranks + 15 fresh + 10 no comments
    expect(r.points).toBe(115);
    expect(r.priority).toBe("high");
    expect(r.urgency).toBe("urgent");
    expect(r.reasons).toEqual([
      '+30 buying intent ("looking for")',
      "+10 the title asks a question",
      "+20 mentions Mailchimp",
      '+15 "email marketing" is searched 74,000 times a month',
      '+10 "email marketing" costs 14.20 a click in ads',
      '+5 the forum ranks #4 in search results for "email marketing"',
      "+15 posted under 6 hours ago",
      "+10 no comments yet",
      "= 115 points: high priority (50+ high, 25+ medium); urgent (under 24 hours old, medium or high, under 20 comments)",
    ]);
  });

  it("example 2: a day-old discussion on a keyword without metrics", () => {
    const r = scorePost(
      {
        title: "Our deliverability dropped after the migration",
        selftext: "Anyone else seeing this?",
        permalink: "/r/emailmarketing/comments/def456/our/",
        score: 25,
        numComments: 12,
        createdUtc: hoursAgo(30),
        keywords: [
          { text: "deliverability", searchVolume: null, cpc: null, serpForumPosition: null, serpForumUrl: null },
        ],
        competitors: [],
      },
      NOW,
    );
    expect(r.points).toBe(5);
    expect(r.priority).toBe("low");
    expect(r.urgency).toBe("not_urgent");
    expect(r.reasons).toEqual(["+5 score 25", "= 5 points: low priority (50+ high, 25+ medium); not urgent"]);
  });

  it("example 3: an old, crowded thread that ranks on the search engine itself", () => {
    const r = scorePost(
      {
        title: "Best newsletter platform in 2026?",
        selftext: "",
        permalink: "/r/newsletters/comments/ghi789/best_newsletter_platform/",
        score: 140,
        numComments: 85,
        createdUtc: hoursAgo(100),
        keywords: [
          {
            text: "newsletter platform",
            searchVolume: 6_600,
            cpc: 9.8,
            serpForumPosition: 2,
            serpForumUrl: "https://www.reddit.com/r/newsletters/comments/ghi789/best_newsletter_platform/",
          },
        ],
        competitors: [],
      },
      NOW,
    );
    // 10 question + 8 volume + 10 cpc + 25 this thread ranks - 10 old - 10 crowded + 5 popular
    expect(r.points).toBe(38);
    expect(r.priority).toBe("medium");
    expect(r.urgency).toBe("not_urgent");
    expect(r.reasons[3]).toBe('+25 this thread is the search engine\'s forum result #2 for "newsletter platform"');
  });

  it("is deterministic: the same post at the same time scores the same", () => {
    const input = {
      title: "x vs y?",
      selftext: "",
      permalink: "/r/a/comments/1/",
      score: 0,
      numComments: 0,
      createdUtc: hoursAgo(1),
      keywords: [],
      competitors: [],
    };
    expect(scorePost(input, NOW)).toEqual(scorePost(input, NOW));
  });
});
