// The one place that decides which lines of a test run's output are known noise of the runtime and its
// tools, not of threadwatch. Each entry says where the line comes from and why it is harmless;
// `hideRuntimeNoise` (installed by test/global-setup.ts in vitest's main process, where Miniflare relays
// workerd's log and Vite logs its warnings) drops exactly these writes and counts them, and the console
// journal inside the runtime (test/helpers/logs.ts) drops the console lines of libraries that match, so a
// green `npm test` reads green. Anything not listed here still prints: a new "uncaught exception"
// from our code is never hidden (test/structure/runtime-noise.test.ts holds both sides to it).

interface KnownNoise {
  /** What the whole write (one log entry, possibly several lines) must match. */
  pattern: RegExp;
  /** Where it comes from, and why it is not a defect of ours. */
  why: string;
}

export const KNOWN_RUNTIME_NOISE: readonly KnownNoise[] = [
  {
    pattern:
      /^uncaught exception; source = Uncaught; stack = TypeError: Can't call WebSocket send\(\) after close\(\)\.\s+at \S*miniflare\/dist\/src\/workers\/browser-rendering\/binding\.worker\.js:\d+:\d+\s*$/,
    why:
      "Miniflare's local Browser Rendering proxy forwards a message Chrome sends after our puppeteer session " +
      "closed its socket; the proxy (not our code) sends on the closed socket. Seen in the browser tests.",
  },
  {
    pattern:
      /^console warning; message = An event handler returned a promise that will be ignored\. Event handlers should not have a return value and should not be async functions\.\s*$/,
    why:
      "@cloudflare/puppeteer's WorkersWebSocketTransport registers an async 'message' listener; workerd warns " +
      "once per browser connection. Our code registers no async event handler.",
  },
  {
    pattern:
      /^exception = \S+: disconnected: (connect\(\): )?Connection refused \(os error 111\)\s+stack:( \S+workerd@[0-9a-f]+)+\s*$/,
    why:
      "workerd logs an outbound connection that was refused even when the fetch's rejection is caught. The " +
      "tests of unreachable blogs fetch from the closed port 127.0.0.1:1 on purpose and assert the error.",
  },
  {
    pattern: /^uncaught exception; source = Uncaught \(in promise\); stack = Error: Network connection lost\.\s*$/,
    why:
      "The same refused connection, as workerd's internal promise of the connection (a stack with no frame of " +
      "ours: a rejection left unhandled by our code would name its file and line, and still prints).",
  },
  {
    pattern:
      /^uncaught exception; exception = \S+: disconnected: jsg\.Error: Network connection lost\.\s+stack:( \S+workerd@[0-9a-f]+)+\s*$/,
    why: "The same refused connection, as logged by workerd's C++ side (native frames only).",
  },
  {
    pattern: /^exception = \S+: disconnected: read end of pipe was aborted\s+stack:( \S+workerd@[0-9a-f]+)+\s*$/,
    why:
      "A request body the Worker refused unread (the payload-limit tests: 413 before reading a body over 1 MB); " +
      "workerd logs that the sender's side of the body's pipe was cut off. Native frames only.",
  },
  {
    pattern:
      /^\[mf:error\] (TypeError: Cannot set properties of undefined \(setting 'connectionId'\)|AssertionError: sessionInfo must be set before connecting|Error: Network connection lost\.)(\s+at (async |new )?\S+ \((\S*miniflare\/dist\/src\/workers\/(browser-rendering|shared)\/\S+|node-internal:internal_assert\w*:\d+:\d+)\))*\s+at (async )?BrowserSession\.connect \(\S*miniflare\/dist\/src\/workers\/browser-rendering\/binding\.worker\.js:\d+:\d+\)(\s+at (async )?\S+ \(\S*miniflare\/dist\/src\/workers\/\S+\))*\s*$/,
    why:
      "Miniflare's local Browser Rendering refuses a connection to a browser that is closing or closed (its " +
      "session record is already cleared, or Chromium no longer listens) by throwing inside its own " +
      "BrowserSession object, every frame Miniflare's (or the assert of workerd's node compatibility it calls). Our connect to a " +
      "warm browser catches the refusal and launches a fresh one (test/publishing/warm-browser.test.ts).",
  },
  {
    pattern:
      /^exception = \S+: disconnected: other end of WebSocketPipe was destroyed\s+stack:( \S+workerd@[0-9a-f]+)+\s*$/,
    why:
      "A browser closed while Miniflare's local Browser Rendering proxy still held its WebSocket (a warm browser " +
      "closed at a file's end, a closing one replaced by a fresh one); workerd logs that the pipe's other end " +
      "went away. Native frames only.",
  },
  {
    pattern:
      /^exception = \S+: disconnected: (client error \(SendRequest\)|Broken pipe \(os error 32\))\s+stack:( \S+workerd@[0-9a-f]+)+\s*$/,
    why:
      "A connection Miniflare's local Browser Rendering proxy held to a Chromium that exited (a warm browser " +
      "closed at a file's end or replaced by a fresh one); workerd's HTTP client logs the dropped request, or " +
      "the broken pipe it was writing to. " +
      "Native frames only.",
  },
  {
    pattern:
      /^exception = \S+: failed: jsg\.Error: Application called deleteAllDurableObjects\(\)\.\s+stack:( \S+workerd@[0-9a-f]+)+\s*$/,
    why:
      "test/fresh-storage.ts empties the storage before each file (`reset()` from cloudflare:test); a Durable " +
      "Object still finishing the previous file's work (a browser close it does not wait for) is aborted, and " +
      "workerd logs why. The next file starts from empty storage either way. Native frames only.",
  },
  {
    pattern:
      /^\[mf:warn\] Moving message "[0-9a-f]+" on queue "threadwatch-[a-z-]+" to dead letter queue "threadwatch-[a-z-]+-dlq" after \d+ failed attempts\.\.\.\s*$/,
    why:
      "Miniflare's queue broker says it gave a message to the dead-letter queue after its last retry; the " +
      "dead-letter tests (test/alerts/deliveries.test.ts) do that on purpose and assert what the DLQ consumer did.",
  },
  {
    pattern:
      /^(TargetCloseError: Protocol error \(Browser\.close\): Target closed|Error: Protocol error: Connection closed\.|ProtocolError: Protocol error \(Browser\.close\): Session with given id not found\.)$/,
    why:
      "@cloudflare/puppeteer closes a browser with `connection.send('Browser.close').catch(console.log)`: when " +
      "Chromium exits before it answers, or was already gone (locally: the session is no longer known), the " +
      "library console.logs the error it caught. " +
      "Logged inside the runtime, so test/helpers/logs.ts drops it there (a whole console line, the error alone).",
  },
  {
    pattern: /^Using secrets defined in \.dev\.vars\s*$/,
    why:
      "wrangler says it read the developer's .dev.vars (written by `npm start`); the tests' own bindings in " +
      "vitest.config.ts override its secrets.",
  },
  {
    pattern: /^Sourcemap for "[^"]*\/node_modules\/[^"]+" points to missing source files\s*$/,
    why:
      "Vite warns that a dependency (@modelcontextprotocol/sdk) ships source maps without its sources; only " +
      "stack traces into that package lose their original lines.",
  },
];

/** Whether one write to the terminal is a known runtime message (ANSI colours ignored). */
export function isRuntimeNoise(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes (ESC [ ... m)
  const plain = text.replace(/\u001b\[[0-9;]*m/g, "");
  return KNOWN_RUNTIME_NOISE.some((noise) => noise.pattern.test(plain));
}

type Write = typeof process.stdout.write;

/**
 * Drops the known runtime messages from this process's stdout and stderr until `restore` is called;
 * `hidden` is how many were dropped.
 */
export function hideRuntimeNoise(): { hidden: () => number; restore: () => void } {
  let hidden = 0;
  const originals: [NodeJS.WriteStream, Write][] = [];
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write;
    originals.push([stream, original]);
    stream.write = function write(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString() : "";
      if (text && isRuntimeNoise(text)) {
        hidden++;
        const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
        callback?.();
        return true;
      }
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Write;
  }
  return {
    hidden: () => hidden,
    restore: () => {
      for (const [stream, original] of originals) stream.write = original;
    },
  };
}
