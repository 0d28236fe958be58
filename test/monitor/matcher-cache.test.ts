// The ingester's compiled matcher is kept while the terms' version stays the same (docs/monitoring.md, "The
// ingester"), per ingester: after the storage is emptied and migrated again (as between test files), the
// version counts from 0 again, and a new client's ingester must match with the terms it finds, not with a
// matcher another ingester compiled at the same version number. Its own file: it empties the storage.
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { termsVersion } from "../../src/db/ingest";
import { callJson } from "../helpers/api";
import { localForum } from "../helpers/forum";
import { newClient, trackingWorkspace } from "../helpers/monitor";

async function ingesterWorld() {
  const config = newClient("matcher-cache");
  await localForum.resetClient(config.clientId, {
    secret: config.clientSecret,
    clock: { factor: 1e-9 },
    posts: { per_minute: 600, late_share: 0, never_share: 0, topic_share: 0 },
    comments: { per_minute: 0 },
  });
  const ingester = env.FORUM_INGESTER.get(env.FORUM_INGESTER.idFromName(config.clientId));
  const round = async () => {
    await localForum.clock(config.clientId, { advance_s: 30 });
    const now = (await localForum.clientStats(config.clientId)).clock.now_ms;
    expect(await ingester.round(config, now)).not.toBeNull();
  };
  return { config, round };
}

describe("the ingester's compiled matcher", () => {
  it("is compiled again by a new ingester when the version counts again from 0 to the same number", async () => {
    const first = await ingesterWorld();
    await trackingWorkspace("matcher before", ["zymurgic"]);
    await first.round();
    const version = await termsVersion(env);

    await reset();
    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
    const second = await ingesterWorld();
    const ws = await trackingWorkspace("matcher after", ["quokkaform"]);
    expect(await termsVersion(env)).toBe(version);
    await second.round();
    await localForum.plant(second.config.clientId, [{ kind: "t3", title: "Anyone tried quokkaform?" }]);
    await second.round();
    const listed = (await callJson("/api/v1/posts", { key: ws.readKey })).body.data as { title: string }[];
    expect(listed.map((p) => p.title)).toEqual(["Anyone tried quokkaform?"]);
  });
});
