// Starts `wrangler dev` for local development or the benchmark and waits until it answers.
import { spawnWrangler } from "./wrangler.mjs";

const READY_TIMEOUT_MS = 90_000;

/**
 * Runs `wrangler dev` on `port`. `vars` are passed as `--var NAME:value` (never written to a file);
 * `extraArgs` go last. Returns the child process; stop it with `stopDevServer`.
 */
export function startDevServer({ port, ip, persistTo, vars = {}, extraArgs = [], capture = false }) {
  const args = ["dev", "--port", String(port), "--show-interactive-dev-session=false"];
  if (ip) args.push("--ip", ip);
  if (persistTo) args.push("--persist-to", persistTo);
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  return spawnWrangler([...args, ...extraArgs], { capture });
}

/** Polls `url` until it answers 200, the child exits, or the time is up (a bounded loop). */
export async function waitUntilReady(child, url, timeoutMs = READY_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  let exited = child.exitCode !== null;
  child.once("exit", () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`wrangler dev exited (code ${child.exitCode}) before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
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
