import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { createWorkspaceWithKeys } from "../../scripts/seed/workspace";
import { createApp } from "../../src/app";
import type { MonitorMessage } from "../../src/contracts/queue-messages";

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

/** A monitor queue binding that keeps what is sent to it instead of delivering it. */
export function recordingMonitorQueue() {
  const sent: MonitorMessage[] = [];
  const queue = {
    send: async (message: MonitorMessage) => void sent.push(message),
    sendBatch: async (messages: { body: MonitorMessage }[]) => void sent.push(...messages.map((m) => m.body)),
  } as unknown as typeof env.MONITOR_QUEUE;
  return { queue, sent };
}

function request(path: string, options: CallOptions): Request {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Request(`http://threadwatch.test${path}`, { method: options.method ?? "GET", headers, body });
}

/** Calls the Worker's own fetch handler, as an HTTP client would. */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  return worker.fetch(request(path, options));
}

/**
 * As callJson, through the app with some of its bindings replaced (`bindings`): for the outside world a test
 * cannot steer otherwise (a Browser Rendering that refuses to start a browser, a queue that keeps messages).
 */
export async function callJsonWith<T = any>(path: string, bindings: Partial<typeof env>, options: CallOptions = {}) {
  const { res, text } = await callWith(path, bindings, options);
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, res };
}

/** As callJsonWith, for an answer that is not JSON (a page): the response and its text. */
export async function callWith(path: string, bindings: Partial<typeof env>, options: CallOptions = {}) {
  const ctx = createExecutionContext();
  const res = await createApp().app.fetch(request(path, options), { ...env, ...bindings }, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

/**
 * As callJson, but what the call sends to the monitor queue is kept, not sent: a change to the tracked terms
 * queues a re-match of the workspace's stored posts (monitor.rematch, docs/monitoring.md), whose delivery a
 * moment later would relink, by the real matcher, posts whose links a test made up. `queued` is what was kept.
 */
export async function callJsonKeepingMonitorQueue<T = any>(path: string, options: CallOptions = {}) {
  const { queue, sent: queued } = recordingMonitorQueue();
  return { ...(await callJsonWith<T>(path, { MONITOR_QUEUE: queue }, options)), queued };
}

export async function callJson<T = any>(
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; body: T; res: Response }> {
  const res = await call(path, options);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, res };
}
