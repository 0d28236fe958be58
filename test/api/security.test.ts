// One security table, run against every /api/v1 operation. The operations are read from the API router's
// own OpenAPI document, so a route added anywhere in the API is covered without touching this file.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/auth/issue-key";
import { revokeKey } from "../../src/db/api-keys";
import { insertSyncedPost } from "../../src/db/blog-sync-posts";
import { finishRun, insertRun, NO_COUNTS } from "../../src/db/blog-sync-runs";
import { directoryDb, workspaceDb } from "../../src/db/client";
import { rematchBatch } from "../../src/monitor/rematch";
import { createApiRouter, openApiDocument } from "../../src/routes/api";
import { callJson, createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { forumComment, ingestComments } from "../helpers/comments";
import { newPersona } from "../helpers/forum";
import { seedWorkspace } from "../helpers/seeded-posts";

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  scope: "read" | "read_write";
  pathParams: string[];
  body?: Schema;
  /** The operation documents a 201: it makes a row. */
  creates: boolean;
}

const doc = openApiDocument(createApiRouter()) as {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
};

const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    scope: op["x-threadwatch-scope"],
    pathParams: (op.parameters ?? []).filter((p: Schema) => p.in === "path").map((p: Schema) => p.name as string),
    body: op.requestBody?.content?.["application/json"]?.schema,
    creates: "201" in (op.responses ?? {}),
  })),
);

const label = (op: Operation) => `${op.method} ${op.path}`;

// ---- valid request bodies, generated from each operation's own schema ---------------------------------

/** Values for fields whose schema alone does not say what a valid value looks like. */
const FIELD_VALUES: Record<string, unknown> = {
  blog_url: "https://blog.example.com/feed.xml",
  website_url: "https://competitor.example.com/",
  subreddit: "threadwatch_test",
  username: "security_persona",
};

const deref = (schema: Schema): Schema =>
  schema.$ref ? deref(doc.components.schemas[String(schema.$ref).replace("#/components/schemas/", "")]!) : schema;

/** The smallest value the schema accepts: required fields only, documented enums, minimums. */
function sample(raw: Schema, field?: string, unique = ""): unknown {
  const schema = deref(raw);
  if (field && field in FIELD_VALUES) return FIELD_VALUES[field];
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Schema) => sample(s, field, unique)));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives)
    return sample(alternatives.find((s: Schema) => deref(s).type !== "null") ?? alternatives[0], field, unique);
  if (schema.enum) return schema.enum.find((v: unknown) => v !== null);
  switch (schema.type) {
    case "object": {
      const properties = Object.keys(schema.properties ?? {});
      // Required fields, the fields a create needs whatever its schema says (FIELD_VALUES), and at least
      // one field when the schema asks for one (a PATCH body).
      const keys = properties.filter((key) => schema.required?.includes(key) || key in FIELD_VALUES);
      if (keys.length < (schema.minProperties ?? 0))
        keys.push(...properties.filter((k) => !keys.includes(k)).slice(0, schema.minProperties - keys.length));
      return Object.fromEntries(keys.map((key) => [key, sample(schema.properties[key], key, unique)]));
    }
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items, undefined, unique));
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return false;
    case "string":
      if (schema.format === "uri" || schema.format === "url") return "https://example.com/";
      if (schema.format === "date-time") return new Date().toISOString();
      return `security ${field ?? "value"} ${unique}`.trim().padEnd(schema.minLength ?? 1, "x");
    default:
      return {};
  }
}

const validBody = (op: Operation, unique = "") => (op.body ? sample(op.body, undefined, unique) : undefined);

// ---- the two workspaces -------------------------------------------------------------------------------

let mine: TestWorkspace;
let theirs: TestWorkspace;
let expiredKey: string;
let revokedKey: string;
/** Ids of rows in `theirs`, by the collection path that owns them (`/posts`, `/keywords`, ...). */
const theirIds = new Map<string, number>();
const NON_EXISTENT_ID = 987_654_321;

/** The collection a path parameter belongs to: `/keywords/{id}` → `/keywords`. */
const collectionOf = (path: string, param: string) => path.slice(0, path.indexOf(`/{${param}}`));

function concretePath(op: Operation): string {
  return op.pathParams.reduce(
    (path, param) => path.replace(`{${param}}`, String(theirIds.get(collectionOf(op.path, param)) ?? NON_EXISTENT_ID)),
    op.path,
  );
}

/** Every parameterless GET of a workspace: what must be unchanged after the refused calls. */
async function snapshot(key: string) {
  // GET /actions/monitoring shows the deployment-wide forum quota, which moves with time and other tests.
  const reads = operations.filter(
    (op) => op.method === "GET" && op.pathParams.length === 0 && op.path !== "/actions/monitoring",
  );
  return Promise.all(
    reads.map(async (op) => [op.path, (await callJson(op.path.replace(/^/, "/api/v1"), { key })).body]),
  );
}

let before: { mine: unknown; theirs: unknown };

beforeAll(async () => {
  mine = await createTestWorkspace("mine");
  theirs = await createTestWorkspace("theirs");
  await seedWorkspace(mine.id, { count: 5, seed: 1 });
  const seeded = await seedWorkspace(theirs.id, { count: 5, seed: 2, forumPrefix: "x_" });
  theirIds.set("/posts", seeded.posts[0]!.id);
  // Every other collection with a create operation gets a real row in `theirs`, made through the API.
  for (const op of operations.filter((o) => o.method === "POST" && o.pathParams.length === 0 && o.creates)) {
    const created = await callJson(`/api/v1${op.path}`, {
      key: theirs.writeKey,
      method: "POST",
      body: validBody(op, "theirs"),
    });
    if (created.status === 201 && Number.isInteger(created.body?.id)) theirIds.set(op.path, created.body.id);
    else
      console.warn(
        `security table: could not create a row for ${op.path} (${created.status}); using a non-existent id: ${JSON.stringify(created.body)}`,
      );
  }
  // Rows under a config (a recorded run, a synced post) for the operations that take a second path id.
  const configId = theirIds.get("/actions/blog-subreddit-syncs");
  if (configId !== undefined) {
    const w = workspaceDb(env, theirs.id);
    const run = await insertRun(w, {
      configId,
      trigger: "api",
      scheduleKey: null,
      publish: false,
      maxPosts: 1,
      fingerprint: "0".repeat(64),
    });
    await finishRun(w, run.id, configId, {
      status: "completed",
      sourceKind: "feed",
      sourceUrl: "https://example.com/feed.xml",
      ...NO_COUNTS,
      error: null,
      finishedAt: new Date().toISOString(),
    });
    theirIds.set("/actions/blog-subreddit-syncs/{id}/runs", run.id);
    const post = await insertSyncedPost(
      w,
      configId,
      {
        sourceUrl: "https://example.com/a",
        title: "A",
        bodyMarkdown: "B",
        bodyRichtext: null,
        images: [],
        contentHash: "0",
      },
      "draft",
    );
    theirIds.set("/actions/blog-subreddit-syncs/{id}/items", post.id);
  }
  // A persona is connected through the forum's consent (no create operation), a comment is stored by the ingest.
  theirIds.set("/actions/personas", (await newPersona(theirs)).id);
  const terms = await callJson("/api/v1/keywords", { key: theirs.readKey });
  const keyword = String(terms.body.data[0]?.keyword);
  const stored = await ingestComments(theirs.id, [forumComment("secx1", `Has anyone tried ${keyword} for this?`)]);
  expect(stored.created, keyword).toBe(1);
  const comments = await callJson("/api/v1/comments", { key: theirs.readKey });
  theirIds.set("/comments", comments.body.data[0].id);
  const db = directoryDb(env);
  expiredKey = (
    await createKey(db, mine.id, {
      name: "expired",
      scope: "read_write",
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    })
  ).key;
  const revoked = await createKey(db, mine.id, { name: "revoked", scope: "read_write" });
  await revokeKey(db, mine.id, revoked.record.id);
  revokedKey = revoked.key;
  // Creating terms through the API queued a background re-match of the stored posts (docs/monitoring.md); run it
  // to the end now, so the snapshots below see settled posts and a late queue delivery changes nothing.
  for (const ws of [mine, theirs]) {
    for (let after: number | null = 0; after !== null; )
      after = (await rematchBatch(workspaceDb(env, ws.id), after)).next;
  }
  before = { mine: await snapshot(mine.writeKey), theirs: await snapshot(theirs.writeKey) };
});

function expectError(res: { status: number; body: any; res: Response }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe("string");
  expect(res.body.error.request_id).toBe(res.res.headers.get("x-request-id"));
  expect(Object.keys(res.body)).toEqual(["error"]);
}

const UNAUTHORIZED: [string, (op: Operation) => Record<string, string>][] = [
  ["no key", () => ({})],
  ["an empty bearer", () => ({ authorization: "Bearer " })],
  ["another scheme", () => ({ authorization: `Basic ${btoa("user:pass")}` })],
  ["a malformed key", () => ({ authorization: "Bearer tw_live_tooShort" })],
  ["a key with the wrong prefix", () => ({ authorization: `Bearer tw_test_${"a".repeat(40)}` })],
  ["a key with characters outside base62", () => ({ authorization: `Bearer tw_live_${"a".repeat(39)}!` })],
  ["an unknown well-formed key", () => ({ authorization: `Bearer tw_live_${"Z".repeat(40)}` })],
  ["an expired temporary key", () => ({ authorization: `Bearer ${expiredKey}` })],
  ["a revoked key", () => ({ authorization: `Bearer ${revokedKey}` })],
];

describe("the security table covers the API", () => {
  it("every route the API router serves is in its OpenAPI document, so none escapes the table", () => {
    const documented = new Set(operations.map(label));
    const served = createApiRouter()
      .routes.filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, "{$1}")}`);
    expect(served.length).toBeGreaterThanOrEqual(documented.size);
    expect([...new Set(served)].filter((r) => !documented.has(r))).toEqual([]);
  });

  it("found the operations of every resource", () => {
    const labels = operations.map(label);
    for (const expected of [
      "GET /posts",
      "PATCH /posts/{id}",
      "GET /keywords",
      "POST /keywords",
      "PATCH /keywords/{id}",
      "DELETE /keywords/{id}",
      "GET /competitors",
      "POST /competitors",
      "PATCH /competitors/{id}",
      "DELETE /competitors/{id}",
    ]) {
      expect(labels).toContain(expected);
    }
    for (const op of operations) {
      expect(["read", "read_write"], label(op)).toContain(op.scope);
      if (op.method !== "GET")
        expect(op.scope, `${label(op)} writes, so it must need a read_write key`).toBe("read_write");
    }
  });
});

describe.each(operations.map((op) => [label(op), op] as const))("%s", (_, op) => {
  const send = (headers: Record<string, string>) =>
    callJson(`/api/v1${concretePath(op)}`, { method: op.method, headers, body: validBody(op, "mine") });

  it.each(UNAUTHORIZED)("is 401 unauthorized with %s", async (_, headers) => {
    const res = await send(headers(op));
    expectError(res, 401, "unauthorized");
    expect(res.res.headers.get("www-authenticate")).toBe("Bearer");
  });

  if (op.scope === "read_write") {
    it("is 403 forbidden with a read key", async () => {
      expectError(await send({ authorization: `Bearer ${mine.readKey}` }), 403, "forbidden");
    });
  } else {
    it("is allowed with a read key", async () => {
      const res = await send({ authorization: `Bearer ${mine.readKey}` });
      // With path ids it targets the other workspace's rows, so the answer is 404 (checked below).
      expect(res.status, JSON.stringify(res.body)).toBe(op.pathParams.length === 0 ? 200 : 404);
    });
  }

  if (op.pathParams.length > 0) {
    it("is 404 not_found for another workspace's id", async () => {
      for (const key of op.scope === "read" ? [mine.readKey, mine.writeKey] : [mine.writeKey]) {
        expectError(await send({ authorization: `Bearer ${key}` }), 404, "not_found");
      }
    });

    if (op.method === "GET") {
      it("finds the same id for its own workspace", async () => {
        const res = await send({ authorization: `Bearer ${theirs.readKey}` });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      });
    }
  }
});

describe("after the table", () => {
  it("no refused call changed anything in either workspace", async () => {
    expect(await snapshot(mine.writeKey)).toEqual(before.mine);
    expect(await snapshot(theirs.writeKey)).toEqual(before.theirs);
  });

  it("the other workspace's rows used as targets were real rows", () => {
    for (const collection of ["/posts", "/keywords", "/competitors"])
      expect(theirIds.get(collection)).toBeGreaterThan(0);
  });
});
