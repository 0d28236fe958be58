#!/usr/bin/env node
// npm run bench:mcp -- [--posts N] [--iterations N] [--port N]
// What the tool protocol costs on top of REST: seeds a workspace into a fresh local state directory, runs
// `wrangler dev` on it, and times the same read as a REST call, as a raw stateless MCP tools/call, and as a
// full SDK client session; checks the answers are identical. Prints figures; asserts nothing about speed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { integerOption, parseCommandLine, runMain } from "../scripts/lib/cli.mjs";
import { startDevServer, stopDevServer, waitUntilReady } from "../scripts/lib/dev-server.mjs";
import { ensureLocalDatabase } from "../scripts/lib/local-d1.mjs";
import { progress } from "../scripts/lib/progress.mjs";
import { seedWorkspace } from "../scripts/lib/seed-workspace.mjs";
import { ascending, percentile } from "../scripts/lib/stats.mjs";

const USAGE = `usage: npm run bench:mcp -- [--posts N] [--iterations N] [--port N]

  --posts N        synthetic posts in the benchmark workspace (default 5000)
  --iterations N   timed requests per case (default 200)
  --port N         port for the temporary wrangler dev (default 8797)`;

const QUERY = { priority: "high", sort_by: "score", limit: 20 };
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function summary(samples) {
  const sorted = ascending(samples);
  const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean };
}

async function time(iterations, fn, label = "requests") {
  const line = progress(label, iterations); // on a terminal only
  for (let i = 0; i < Math.min(10, iterations); i++) await fn(); // warm-up
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
    line.tick();
  }
  line.end();
  return summary(samples);
}

runMain(async () => {
  const { values } = parseCommandLine(process.argv.slice(2), {
    posts: { type: "string", default: "5000" },
    iterations: { type: "string", default: "200" },
    port: { type: "string", default: "8797" },
  });
  const posts = integerOption("posts", values.posts, { min: 0, max: 1_000_000 });
  const iterations = integerOption("iterations", values.iterations, { min: 1, max: 100_000 });
  const port = integerOption("port", values.port, { min: 1, max: 65535 });

  const persistTo = fs.mkdtempSync(path.join(os.tmpdir(), "threadwatch-bench-mcp-"));
  let server;
  try {
    await ensureLocalDatabase(persistTo);
    const { keys } = await seedWorkspace({ name: "mcp benchmark", posts, persistTo, seed: 7 });
    const key = keys[1]; // the read key: reads are what an agent does most
    const base = `http://127.0.0.1:${port}`;
    server = startDevServer({ port, ip: "127.0.0.1", persistTo, capture: true });
    await waitUntilReady(server, `${base}/`);

    const auth = { authorization: `Bearer ${key}` };
    const restUrl = `${base}/api/v1/posts?${new URLSearchParams(Object.entries(QUERY).map(([k, v]) => [k, String(v)]))}`;
    const rest = () => fetch(restUrl, { headers: auth }).then((r) => r.text());
    const rpc = (method, params) =>
      fetch(`${base}/mcp`, {
        method: "POST",
        headers: { ...auth, ...MCP_HEADERS },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      }).then((r) => r.json());
    const toolCall = () => rpc("tools/call", { name: "get_posts", arguments: QUERY });

    const restBody = await rest();
    const toolBody = await toolCall();
    if (toolBody.result?.content?.[0]?.text !== restBody)
      throw new Error("tools/call get_posts did not answer exactly what REST answered");
    const toolCount = (await rpc("tools/list")).result.tools.length;

    const session = async () => {
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }),
      );
      await client.listTools();
      await client.callTool({ name: "get_posts", arguments: QUERY });
      await client.close();
    };

    const rows = [
      ["REST GET /api/v1/posts", await time(iterations, rest, "REST GET /api/v1/posts")],
      ["MCP tools/call get_posts", await time(iterations, toolCall, "MCP tools/call get_posts")],
      [`MCP tools/list (${toolCount} tools)`, await time(iterations, () => rpc("tools/list"), "MCP tools/list")],
      [
        "SDK session: connect + list + call",
        await time(Math.max(1, Math.floor(iterations / 4)), session, "SDK sessions"),
      ],
    ];
    console.log(
      `workspace: ${posts} posts; query ${JSON.stringify(QUERY)}; ${iterations} sequential requests per case (session: ${Math.max(1, Math.floor(iterations / 4))})`,
    );
    console.log("case                                  p50 ms   p95 ms   mean ms");
    for (const [name, s] of rows) {
      console.log(
        `${name.padEnd(36)} ${s.p50.toFixed(2).padStart(7)}  ${s.p95.toFixed(2).padStart(7)}  ${s.mean.toFixed(2).padStart(8)}`,
      );
    }
    console.log("tools/call answer identical to the REST body: yes");
    return 0;
  } finally {
    if (server) await stopDevServer(server);
    fs.rmSync(persistTo, { recursive: true, force: true });
  }
}, USAGE);
