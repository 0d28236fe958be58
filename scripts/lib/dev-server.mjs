// Starts `wrangler dev` for local development or the benchmark, waits until it answers, and calls its API.
import net from "node:net";
import { spawnWrangler } from "./wrangler.mjs";

const READY_TIMEOUT_MS = 90_000;
/** How much of a captured server's output is kept (its last characters), for the error when it fails to start. */
const OUTPUT_TAIL_CHARS = 2_000;

/** The kept tail of each captured child's output (stdout and stderr interleaved as they arrive). */
const outputTails = new WeakMap();

/**
 * Runs `wrangler dev` on `port`. `vars` are passed as `--var NAME:value` (never written to a file);
 * `extraArgs` go last. With `capture`, its output does not reach the terminal: both pipes are read all the
 * time (so the child never blocks on a full pipe) and the last characters are kept for `waitUntilReady`'s
 * error. Returns the child process; stop it with `stopDevServer`.
 */
export function startDevServer({ port, ip, persistTo, vars = {}, extraArgs = [], capture = false }) {
  const args = ["dev", "--port", String(port), "--show-interactive-dev-session=false"];
  if (ip) args.push("--ip", ip);
  if (persistTo) args.push("--persist-to", persistTo);
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  const child = spawnWrangler([...args, ...extraArgs], { capture });
  if (capture) {
    outputTails.set(child, "");
    const keep = (text) => outputTails.set(child, (outputTails.get(child) + text).slice(-OUTPUT_TAIL_CHARS));
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding("utf8");
      stream.on("data", keep);
    }
  }
  return child;
}

/** Whether a server can listen on `port` of `host`; false when something else has it (EADDRINUSE). */
function canListen(port, host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (err) => {
      if (err.code === "EADDRINUSE" || err.code === "EACCES") resolve(false);
      // A host this machine does not have (IPv6 switched off): nothing can be listening there.
      else if (err.code === "EADDRNOTAVAIL" || err.code === "EAFNOSUPPORT") resolve(true);
      else reject(err);
    });
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on now, picked by the system. */
function anyFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Whether `port` is free on every address `wrangler dev` listens on for localhost (IPv4 and IPv6 loopback
 * and the wildcard). Asked before anything is announced: wrangler itself only fails after its start-up,
 * and another service already on the port would answer the readiness probe as if it were ours.
 */
export async function portTaken(port) {
  for (const host of ["127.0.0.1", "::1", "0.0.0.0"]) if (!(await canListen(port, host))) return true;
  return false;
}

/** The error of a taken port: which one, and the command that picks another. */
export async function portTakenError(port, command) {
  return new Error(
    `port ${port} is already in use (another npm start or wrangler dev?); stop that process, or choose another port: ${command} -- --port ${await anyFreePort()}`,
  );
}

/** An error about `child`, with the tail of its captured output when there is any. */
function serverError(child, message) {
  const tail = outputTails.get(child)?.trim();
  return new Error(tail ? `${message}; its last output:\n${tail}` : message);
}

/**
 * Polls `url` until it answers 200, the child exits, or the time is up (a bounded loop). Resolves with the
 * number of requests the server answered (each is a request line in wrangler's log, the last perhaps printed
 * after this returns). The error carries the tail of the child's output when it was started with `capture`.
 */
export async function waitUntilReady(child, url, timeoutMs = READY_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  let exited = child.exitCode !== null;
  child.once("exit", () => (exited = true));
  let answered = 0;
  while (Date.now() < deadline) {
    if (exited) throw serverError(child, `wrangler dev exited (code ${child.exitCode}) before ${url} answered`);
    try {
      // One request at a time, waited for until the deadline: a probe given up early would still be served
      // (and logged) later, after the service is announced.
      const res = await fetch(url, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
      answered++;
      await res.arrayBuffer();
      if (res.ok) return answered;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw serverError(child, `${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Stops wrangler dev (SIGTERM, then SIGKILL after a grace period) and resolves when it has exited. */
export function stopDevServer(child, graceMs = 5_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** One JSON request to the local service; throws with the status and the start of the body when not ok. */
export async function callApi(base, key, method, route, body) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}
