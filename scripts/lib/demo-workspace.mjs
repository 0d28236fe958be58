// The demo workspace `npm start` seeds once. The database keeps only key digests, so the plain demo keys
// are remembered in a git-ignored file inside wrangler's local state directory (.wrangler/state/threadwatch-demo.json) and checked against the database
// on every start.
import fs from "node:fs";
import path from "node:path";
import { sha256Hex } from "../../src/lib/crypto.ts";
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
    return { workspace: Boolean(workspace), keys: (await keyWorks(demo.api_key)) && (await keyWorks(demo.read_key)) };
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
 * the workspace is still there but a remembered key was revoked or deleted, new demo keys are issued.
 * Returns `{workspace_id, api_key, read_key, created, rekeyed}`.
 */
export async function ensureDemoWorkspace(persistTo = DEFAULT_PERSIST_DIR) {
  const file = demoFile(persistTo);
  const demo = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
  const status = demo ? await checkDemo(persistTo, demo) : { workspace: false, keys: false };
  if (demo && status.workspace && status.keys) return { ...demo, created: false, rekeyed: false };
  if (demo && status.workspace) {
    const keys = await issueSeedKeys(demo.workspace_id, { persistTo, keyName: "demo" });
    return {
      ...remember(persistTo, { workspace_id: demo.workspace_id, api_key: keys[0], read_key: keys[1] }),
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
