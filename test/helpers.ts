import { env, exports } from "cloudflare:workers";
import { createWorkspaceWithKeys } from "../src/seed/workspace";

export const ADMIN_TOKEN = "test-admin-token";

export interface TestWorkspace {
  id: number;
  writeKey: string;
  readKey: string;
}

/** A new workspace with a read_write and a read key, made by the seeding module (the admin API's own code). */
export async function createTestWorkspace(name = "test workspace"): Promise<TestWorkspace> {
  const { workspaceId, keys } = await createWorkspaceWithKeys(env, name, [
    { name: "write", scope: "read_write" },
    { name: "read", scope: "read" },
  ]);
  return { id: workspaceId, writeKey: keys[0]!, readKey: keys[1]! };
}

/** The Worker's own default export, as a loopback binding (the same fetch handler production runs). */
const worker = (exports as unknown as { default: Fetcher }).default;

export interface CallOptions {
  key?: string | null;
  method?: string;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
}

/** Calls the Worker's own fetch handler, as an HTTP client would. */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return worker.fetch(
    new Request(`http://threadwatch.test${path}`, { method: options.method ?? "GET", headers, body }),
  );
}

export async function callJson<T = any>(
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; body: T; res: Response }> {
  const res = await call(path, options);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, res };
}
