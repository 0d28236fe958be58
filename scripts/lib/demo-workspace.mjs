// The demo workspace `npm start` seeds once. The database keeps only key digests, so the plain demo keys
// are remembered in a git-ignored file inside wrangler's local state directory (.wrangler/state/threadwatch-demo.json) and checked against the database
// on every start.
import fs from "node:fs";
import path from "node:path";
import { sha256Hex } from "../../src/lib/crypto.ts";
import { demoKeysToIssue } from "./cli-settings.mjs";
import { openLocalD1 } from "./local-d1.mjs";
import { DEFAULT_PERSIST_DIR } from "./paths.mjs";
import { issueSeedKeys, seedWorkspace } from "./seed-workspace.mjs";

const DEMO_POSTS = 300;
const DEMO_NAME = "Demo workspace";
const demoFile = (persistTo) => path.join(persistTo, "threadwatch-demo.json");

/** Whether the workspace exists, and whether each remembered key still works (present, not revoked or expired). */
async function checkDemo(persistTo, demo) {
  const db = await openLocalD1(persistTo, { readOnly: true });
  try {
    const workspace = db.prepare("SELECT id FROM workspaces WHERE id = ?").get(demo.workspace_id);
    const keyWorks = async (key) =>
      Boolean(
        db
          .prepare(
            "SELECT 1 FROM api_keys WHERE workspace_id = ? AND key_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
          )
          .get(demo.workspace_id, await sha256Hex(key), new Date().toISOString()),
      );
    return {
      workspace: Boolean(workspace),
      works: { api_key: await keyWorks(demo.api_key), read_key: await keyWorks(demo.read_key) },
    };
  } finally {
    db.close();
  }
}

function remember(persistTo, demo) {
  fs.writeFileSync(demoFile(persistTo), `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}

/**
 * The demo workspace and working keys: seeded on the first start (or when its database was wiped); when
 * the workspace is still there but a remembered key was revoked, expired or deleted, a new key is issued
 * for that one only (revoking the read key does not add a second read_write key, nor a spare revoked one).
 * Returns `{workspace_id, api_key, read_key, created, rekeyed}`.
 */
export async function ensureDemoWorkspace(persistTo = DEFAULT_PERSIST_DIR) {
  const file = demoFile(persistTo);
  const demo = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
  const status = demo ? await checkDemo(persistTo, demo) : { workspace: false, works: {} };
  const reissue = demoKeysToIssue(status.works);
  if (demo && status.workspace && reissue.length === 0) return { ...demo, created: false, rekeyed: false };
  if (demo && status.workspace) {
    // Only the keys that stopped working are issued again, each under its own name: a working key is never
    // joined by a second one, and no spare key is made (nor revoked) on the way.
    const keys = await issueSeedKeys(demo.workspace_id, {
      persistTo,
      keys: reissue.map(({ name, scope }) => ({ name, scope })),
    });
    const renewed = Object.fromEntries(reissue.map((spec, i) => [spec.field, keys[i]]));
    return {
      ...remember(persistTo, {
        workspace_id: demo.workspace_id,
        api_key: demo.api_key,
        read_key: demo.read_key,
        ...renewed,
      }),
      created: false,
      rekeyed: true,
    };
  }
  const { workspaceId, keys } = await seedWorkspace({ name: DEMO_NAME, posts: DEMO_POSTS, persistTo, keyName: "demo" });
  return {
    ...remember(persistTo, { workspace_id: workspaceId, api_key: keys[0], read_key: keys[1] }),
    created: true,
    rekeyed: false,
  };
}
