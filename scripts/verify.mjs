#!/usr/bin/env node
// npm run verify -- --base-url URL --admin-token T --workspace W [--config ID] [--post ID] [--verify-media]
// The non-public verification (docs/commands.md, "verify"): the recommended order of
// docs/publishing.md "Readiness" as a client runs it against a running service, with temporary keys it
// creates and deletes (the report names each one), then the clean state. Prints a report; exit 1 when
// anything is not clean (a step failed, readiness or the preflight said no, or the state is dirty), exit 2
// when the workspace has several configs and --config does not say which. It never publishes, never
// approves, and uploads media only with --verify-media.
import { EXIT_FAILED, EXIT_USAGE, integerOption, parseCommandLine, runMain, UsageError } from "./lib/cli.mjs";
import { baseUrlProblem } from "./lib/cli-settings.mjs";
import { readDevVars } from "./lib/dev-vars.mjs";

const USAGE = `usage: npm run verify -- --workspace W [--base-url URL] [--admin-token T] [--config ID] [--post ID] [--verify-media]

  --workspace W      the workspace to verify
  --base-url URL     the service (default http://localhost:8787)
  --admin-token T    admin bearer token (default: $ADMIN_TOKEN, then ADMIN_TOKEN in .dev.vars)
  --config ID        the sync config (required when the workspace has more than one)
  --post ID          the synced post to preflight (default: the config's newest draft or queued post)
  --verify-media     let readiness upload the drafts' images (default: nothing is uploaded)
  --json             print the report as JSON`;

const TEMP_KEY_SECONDS = 900;

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    "base-url": { type: "string", default: "http://localhost:8787" },
    "admin-token": { type: "string" },
    workspace: { type: "string" },
    config: { type: "string" },
    post: { type: "string" },
    "verify-media": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  });
  if (!values.workspace) throw new UsageError("--workspace is required");
  const workspace = integerOption("workspace", values.workspace, { min: 1, max: Number.MAX_SAFE_INTEGER });
  const token = values["admin-token"] ?? process.env.ADMIN_TOKEN ?? readDevVars().ADMIN_TOKEN;
  if (!token) throw new UsageError("no admin token: pass --admin-token or set ADMIN_TOKEN");
  const problem = baseUrlProblem(values["base-url"]);
  if (problem) throw new UsageError(`--base-url ${problem}`);
  const base = values["base-url"].replace(/\/+$/, "");

  const steps = [];
  const record = (name, ok, detail) => {
    steps.push({ name, ok, detail });
    if (!values.json) console.log(`${ok ? "ok  " : "FAIL"}  ${name}${detail ? `: ${detail}` : ""}`);
  };
  const call = async (method, path, { bearer, body } = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, body: json, text };
  };
  const why = (res) =>
    res.body?.error ? `${res.status} ${res.body.error.code}: ${res.body.error.message}` : `HTTP ${res.status}`;

  // Every key this run creates, and whether it deleted it: the report ends with the list.
  const created = [];
  /** A temporary key of `scope`, recorded as the step `label`; undefined when the service refused it. */
  const createKey = async (label, scope, purpose, seconds) => {
    const res = await call("POST", `/admin/v1/workspaces/${workspace}/keys`, {
      bearer: token,
      body: { name: `verify ${purpose} ${new Date().toISOString()}`, scope, expires_in_seconds: seconds },
    });
    if (res.status !== 201) return void record(label, false, why(res));
    created.push({ id: res.body.id, prefix: res.body.prefix, scope, purpose, deleted: false });
    record(label, true, `${res.body.prefix}… expires ${res.body.expires_at}`);
    return res.body;
  };
  const deleteKey = async (label, key) => {
    const res = await call("DELETE", `/admin/v1/workspaces/${workspace}/keys/${key.id}`, { bearer: token });
    const entry = created.find((c) => c.id === key.id);
    if (entry) entry.deleted = res.status === 200;
    record(`${label} ${key.prefix}…`, res.status === 200, res.status === 200 ? null : why(res));
  };

  // 1. Temporary read and write keys, as a client of the API would hold.
  const keys = [];
  for (const scope of ["read", "read_write"]) {
    const key = await createKey(`create temporary ${scope} key`, scope, scope, TEMP_KEY_SECONDS);
    if (!key) break;
    keys.push(key);
  }
  const [readKey, writeKey] = keys;
  /** The configs to choose from when there are several and --config was not given. */
  let choices;
  try {
    if (keys.length === 2) choices = await recommendedOrder(readKey.key, writeKey.key);
  } finally {
    // 6. Delete the temporary keys, whatever happened.
    for (const key of keys) await deleteKey("delete temporary key", key);
  }
  if (choices) return refuseToGuess(choices);
  await cleanState();

  async function recommendedOrder(read, write) {
    // 2. get_blog_subreddit_syncs
    const list = await call("GET", "/api/v1/actions/blog-subreddit-syncs", { bearer: read });
    if (list.status !== 200) return record("get_blog_subreddit_syncs", false, why(list));
    // Several configs and none named: the first is not necessarily the one just set up, so do not guess.
    if (!values.config && list.body.data.length > 1) {
      record("get_blog_subreddit_syncs", false, `${list.body.count} configs; choose one with --config`);
      return list.body.data;
    }
    const config = values.config ? list.body.data.find((c) => String(c.id) === values.config) : list.body.data[0];
    record(
      "get_blog_subreddit_syncs",
      !!config,
      config
        ? `${list.body.count} configs; using ${config.id} (${config.blog_url} → r/${config.subreddit})`
        : "no such config",
    );
    if (!config) return;
    const path = `/api/v1/actions/blog-subreddit-syncs/${config.id}`;
    // 3. post_blog_subreddit_syncs_id_run with dry_run=true: writes nothing.
    const dry = await call("POST", `${path}/run`, { bearer: write, body: { dry_run: true } });
    record(
      "dry run",
      dry.status === 200 && dry.body.run.status !== "failed",
      dry.status === 200
        ? `${dry.body.run.status}, ${dry.body.items.length} items previewed, source ${dry.body.run.source_kind}`
        : why(dry),
    );
    // 4. post_blog_subreddit_syncs_id_readiness (media only when asked).
    const ready = await call("POST", `${path}/readiness`, {
      bearer: write,
      body: { verify_media_upload: values["verify-media"] },
    });
    if (ready.status !== 200) record("readiness", false, why(ready));
    else {
      const failed = ready.body.checks.filter((c) => !c.ok);
      record(
        "readiness",
        ready.body.ready,
        ready.body.ready
          ? `persona u/${ready.body.persona.username}, r/${ready.body.subreddit}, ${ready.body.media.length} media uploaded`
          : failed.map((c) => `${c.name}: ${c.reason}`).join("; "),
      );
    }
    // 5. post_blog_subreddit_syncs_id_publish_preflight, one selected post.
    let postId = values.post ? Number(values.post) : undefined;
    if (postId === undefined) {
      for (const state of ["draft", "queued"]) {
        const items = await call("GET", `${path}/items?state=${state}&limit=1`, { bearer: read });
        if (items.status === 200 && items.body.data[0]) {
          postId = items.body.data[0].id;
          break;
        }
      }
    }
    if (postId === undefined)
      return record("publish preflight", true, "skipped: the config has no draft or queued post");
    const pre = await call("POST", `${path}/publish-preflight`, { bearer: write, body: { synced_post_id: postId } });
    if (pre.status !== 200) return record(`publish preflight of post ${postId}`, false, why(pre));
    const failed = pre.body.checks.filter((c) => !c.ok);
    record(
      `publish preflight of post ${postId}`,
      pre.body.ok,
      pre.body.ok
        ? `would submit "${pre.body.submission.title}" to r/${pre.body.submission.sr}`
        : failed.map((c) => `${c.name}: ${c.reason}`).join("; "),
    );
  }

  async function cleanState() {
    // Clean: no temporary keys, no queued posts, no failed items, last_error null, zero published.
    const list = await call("GET", `/admin/v1/workspaces/${workspace}/keys`, { bearer: token });
    if (list.status !== 200) return record("clean state: temporary keys", false, why(list));
    const now = Date.now();
    const live = list.body.data.filter((k) => k.expires_at && !k.revoked_at && Date.parse(k.expires_at) > now);
    record(
      "clean state: no temporary API keys",
      live.length === 0,
      live.length
        ? `${live.length} still usable: ${live.map((k) => `${k.prefix}… (id ${k.id}, "${k.name}", expires ${k.expires_at})`).join(", ")}; delete with DELETE /admin/v1/workspaces/${workspace}/keys/:id`
        : null,
    );
    // A short-lived key to read the configs, made after the check above; deleted right after.
    const reader = await createKey("create clean-state read key", "read", "clean-state read", 60);
    if (!reader) return;
    try {
      const configs = await call("GET", "/api/v1/actions/blog-subreddit-syncs", { bearer: reader.key });
      if (configs.status !== 200) return record("clean state: sync items", false, why(configs));
      const sum = (state) => configs.body.data.reduce((n, c) => n + c.item_counts[state], 0);
      record("clean state: no queued posts", sum("queued") === 0, `${sum("queued")} queued`);
      record("clean state: no failed sync items", sum("failed") === 0, `${sum("failed")} failed`);
      record("clean state: zero published posts", sum("published") === 0, `${sum("published")} published`);
      const errors = configs.body.data.filter((c) => c.last_error !== null);
      record(
        "clean state: last_error null",
        errors.length === 0,
        errors.map((c) => `config ${c.id}: ${c.last_error}`).join("; ") || null,
      );
    } finally {
      await deleteKey("delete clean-state read key", reader);
    }
  }

  /** Every key this run created, and whether each is deleted, in one line. */
  function keysSummary() {
    const named = created.map((k) => `${k.prefix}… (id ${k.id}, ${k.purpose})`).join(", ");
    const kept = created.filter((k) => !k.deleted);
    if (created.length === 0) return "temporary keys: none created";
    return kept.length === 0
      ? `temporary keys: created ${created.length} and deleted all ${created.length}: ${named}`
      : `temporary keys: created ${created.length}: ${named}; NOT deleted: ${kept.map((k) => `${k.prefix}… (id ${k.id})`).join(", ")}; delete with DELETE /admin/v1/workspaces/${workspace}/keys/:id`;
  }

  function refuseToGuess(configs) {
    const lines = configs.map((c) => `  --config ${c.id}   ${c.blog_url} → r/${c.subreddit}`);
    if (values.json) console.log(JSON.stringify({ clean: false, steps, keys: created, configs }, null, 2));
    else console.log(`\n${keysSummary()}`);
    console.error(
      `error: workspace ${workspace} has ${configs.length} sync configs; say which one to verify:\n${lines.join("\n")}`,
    );
    return EXIT_USAGE;
  }

  const clean = steps.every((s) => s.ok);
  if (values.json) console.log(JSON.stringify({ clean, steps, keys: created }, null, 2));
  else
    console.log(
      `\n${keysSummary()}\n${clean ? "clean: verification made no public change and everything passed" : "NOT clean: see FAIL lines above"}`,
    );
  return clean ? 0 : EXIT_FAILED;
}, USAGE);
