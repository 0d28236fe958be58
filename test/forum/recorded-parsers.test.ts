/// <reference types="vite/client" />
// The forum's recorded answers (test/fixtures/forum/recorded/: PRAW and prawcore cassettes, go-reddit test data,
// each interaction naming its source) replayed through the parsers of publishing (src/forum/schemas.ts and the
// helpers beside them): a drift between what the forum sends and what the project reads fails here.
import { describe, expect, it } from "vitest";
import { parseRatelimitDelay } from "../../src/forum/errors";
import { PERSONA_SCOPES, parseScopes } from "../../src/forum/oauth";
import { uploadUrl } from "../../src/forum/persona-client";
import {
  ErrorAnswer,
  FlairTemplates,
  InfoListing,
  MeAnswer,
  MediaAssetLease,
  PostRequirements,
  SubmitAnswer,
  SubmittedListing,
  SubmitValidationError,
  SubredditAbout,
  TokenAnswer,
  TokenRefusal,
  VisitorAbout,
} from "../../src/forum/schemas";

interface Interaction {
  source: string;
  status: number;
  request: { method: string; uri: string };
  headers: Record<string, string>;
  body: unknown;
}

const RECORDED = import.meta.glob("../fixtures/forum/recorded/*.json", { eager: true, import: "default" }) as Record<
  string,
  { endpoint: string; interactions: Interaction[] }
>;
const recorded = (endpoint: string): Interaction[] => {
  const file = Object.entries(RECORDED).find(([path]) => path.endsWith(`/${endpoint}.json`));
  if (!file) throw new Error(`no recording of ${endpoint}`);
  return file[1].interactions;
};

const parses = (schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } }, i: Interaction) => {
  const result = schema.safeParse(i.body);
  expect(result.success, `${i.source}: ${JSON.stringify(result.error)}`).toBe(true);
  return (result as unknown as { data: any }).data;
};

describe("recorded answers through the parsers of publishing", () => {
  it("token endpoint: grants (with and without a rotated refresh token) and both refusal forms", () => {
    const answers = recorded("access_token");
    const grants = answers.filter((i) => i.status === 200 && (i.body as { access_token?: string }).access_token);
    expect(grants.length).toBeGreaterThanOrEqual(4);
    for (const i of grants) {
      const grant = parses(TokenAnswer, i);
      expect(grant.expires_in).toBeGreaterThan(0);
      if (grant.scope) expect(parseScopes(grant.scope)).toEqual([...parseScopes(grant.scope)].sort());
    }
    expect(grants.some((i) => (i.body as { refresh_token?: string }).refresh_token)).toBe(true);
    const refusals = answers.filter((i) => (i.body as { error?: unknown }).error !== undefined);
    expect(refusals.map((i) => [i.status, (i.body as { error: unknown }).error])).toEqual(
      expect.arrayContaining([
        [200, "invalid_grant"],
        [400, 400],
      ]),
    );
    for (const i of refusals) parses(TokenRefusal, i);
  });

  it("scopes as the forum answers them: spaces or commas, any order", () => {
    expect(parseScopes("submit identity,read  flair history")).toEqual([...PERSONA_SCOPES].sort());
  });

  it("who am I on the OAuth host is flat (no kind/data, no modhash)", () => {
    for (const i of recorded("me")) {
      const me = parses(MeAnswer, i);
      expect(me.name).toEqual(expect.any(String));
      expect(i.body).not.toHaveProperty("kind");
      expect(i.body).not.toHaveProperty("modhash");
    }
  });

  it("subreddit about is wrapped t5; a visitor's account about is wrapped t2", () => {
    for (const i of recorded("about")) expect(parses(SubredditAbout, i).data.display_name).toEqual(expect.any(String));
    for (const i of recorded("user_about")) expect(parses(VisitorAbout, i).data.name).toEqual(expect.any(String));
  });

  it("post requirements (null lengths included) and link flair templates (a bare array)", () => {
    for (const i of recorded("post_requirements")) parses(PostRequirements, i);
    for (const i of recorded("link_flair_v2")) expect(parses(FlairTemplates, i).length).toBeGreaterThan(0);
  });

  it("the media lease names a scheme-relative upload host and the asset id; the upload answers 201 XML", () => {
    for (const i of recorded("media_asset")) {
      const lease = parses(MediaAssetLease, i);
      expect(lease.args.action.startsWith("//")).toBe(true);
      expect(uploadUrl(lease.args.action, false)).toMatch(/^https:\/\/reddit-uploaded-media\./);
      expect(lease.asset.asset_id).toEqual(expect.any(String));
    }
    expect(recorded("upload").every((i) => i.status === 201)).toBe(true);
    // A local stand-in's upload host on a loopback address, when private fetches are allowed.
    expect(uploadUrl("//127.0.0.1:9000", true)).toBe("http://127.0.0.1:9000");
    expect(uploadUrl("//127.0.0.1:9000", false)).toBe("https://127.0.0.1:9000");
  });

  it("submit: success data, and the HTTP 400 SUBMIT_VALIDATION_* refusal of validate_on_submit", () => {
    for (const i of recorded("submit")) {
      if (i.status === 200) expect(parses(SubmitAnswer, i).json.data.id).toEqual(expect.any(String));
      else expect(parses(SubmitValidationError, i).reason).toMatch(/^SUBMIT_VALIDATION_/);
    }
    expect(recorded("submit").some((i) => i.status === 400)).toBe(true);
  });

  it("RATELIMIT messages in r2's wording name their delay", () => {
    expect(parseRatelimitDelay("you are doing that too much. try again in 9 minutes.")).toBe(540);
    expect(parseRatelimitDelay("you are doing that too much. try again in 1 second.")).toBe(1);
    expect(parseRatelimitDelay("you are doing that too much. try again in 2 days.")).toBe(172_800);
  });

  it("the submitted list and /api/info are listings; /api/info carries the removal fields", () => {
    for (const i of recorded("submitted")) expect(parses(SubmittedListing, i).data.children.length).toBeGreaterThan(0);
    for (const i of recorded("info")) {
      const links = parses(InfoListing, i).data.children.filter((c: { kind: string }) => c.kind === "t3");
      expect(links.length).toBeGreaterThan(0);
    }
  });

  it("the forum's error bodies", () => {
    for (const i of recorded("errors")) parses(ErrorAnswer, i);
  });
});
