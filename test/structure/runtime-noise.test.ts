// The known runtime noise hidden from a test run's output (test/runtime-noise.ts): the real lines are
// hidden, and the same messages from our own code, or anything else, are not.
import { describe, expect, it } from "vitest";
import { isRuntimeNoise } from "../runtime-noise";

const WORKERD = "/work/x/node_modules/@cloudflare/workerd-linux-64/bin/workerd";

describe("known runtime noise", () => {
  it("hides the lines workerd, Miniflare and Vite print on a green run", () => {
    for (const line of [
      "uncaught exception; source = Uncaught; stack = TypeError: Can't call WebSocket send() after close().\n    at file:///w/node_modules/miniflare/dist/src/workers/browser-rendering/binding.worker.js:194:82\n",
      "console warning; message = An event handler returned a promise that will be ignored. Event handlers should not have a return value and should not be async functions.\n",
      `exception = rust/worker/ffi.rs:110: disconnected: Connection refused (os error 111)\nstack: ${WORKERD}@28a3c60 ${WORKERD}@3ac7580\n`,
      "uncaught exception; source = Uncaught (in promise); stack = Error: Network connection lost.\n",
      `exception = kj/async-io.c++:763: disconnected: read end of pipe was aborted\nstack: ${WORKERD}@3ed1111\n`,
      `uncaught exception; exception = workerd/jsg/value.h:1535: disconnected: jsg.Error: Network connection lost.\nstack: ${WORKERD}@3a4d9d0 ${WORKERD}@284e4dc\n`,
      'Sourcemap for "/w/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js" points to missing source files\n',
      "Using secrets defined in .dev.vars\n",
      "[mf:error] Error: Network connection lost.\n    at async fetchWithConnectRetry (file:///w/node_modules/miniflare/dist/src/workers/browser-rendering/binding.worker.js:77:14)\n    at async BrowserSession.connect (file:///w/node_modules/miniflare/dist/src/workers/browser-rendering/binding.worker.js:165:81)\n    at async BrowserSession.fetch (file:///w/node_modules/miniflare/dist/src/workers/shared/index.worker.js:388:18)\n",
      "[mf:error] TypeError: Cannot set properties of undefined (setting 'connectionId')\n    at BrowserSession.connect (file:///w/node_modules/miniflare/dist/src/workers/browser-rendering/binding.worker.js:166:42)\n    at async BrowserSession.fetch (file:///w/node_modules/miniflare/dist/src/workers/shared/index.worker.js:388:18)\n",
      `exception = kj/compat/http.c++:4784: disconnected: other end of WebSocketPipe was destroyed\nstack: ${WORKERD}@640b54a ${WORKERD}@640f0b1\n`,
      "[mf:error] AssertionError: sessionInfo must be set before connecting\n    at new AssertionError (node-internal:internal_assertionerror:427:15)\n    at assert (node-internal:internal_assert:49:15)\n    at BrowserSession.connect (file:///w/node_modules/miniflare/dist/src/workers/browser-rendering/binding.worker.js:161:5)\n    at BrowserSession.fetch (file:///w/node_modules/miniflare/dist/src/workers/shared/index.worker.js:388:37)\n",
      `exception = rust/worker/ffi.rs:110: disconnected: client error (SendRequest)\nstack: ${WORKERD}@28a3c60 ${WORKERD}@3ac3280\n`,
      `exception = rust/cxx/kj-hyper/ffi.rs:227: disconnected: Broken pipe (os error 32)\nstack: ${WORKERD}@640a120 ${WORKERD}@63d7b70\n`,
      `exception = workerd/api/unsafe.c++:229: failed: jsg.Error: Application called deleteAllDurableObjects().\nstack: ${WORKERD}@28a3c60 ${WORKERD}@63fc8b7\n`,

      '[mf:warn] Moving message "3b7205ac1d4749141006f2662b565272" on queue "threadwatch-alerts" to dead letter queue "threadwatch-alerts-dlq" after 15 failed attempts...\n',
      "TargetCloseError: Protocol error (Browser.close): Target closed",
      "Error: Protocol error: Connection closed.",
      "ProtocolError: Protocol error (Browser.close): Session with given id not found.",
      '\u001b[33mSourcemap for "/w/node_modules/pkg/index.js" points to missing source files\u001b[39m\n',
    ])
      expect(isRuntimeNoise(line), line).toBe(true);
  });

  it("never hides an exception with a frame of ours, a source map of ours, or other output", () => {
    for (const line of [
      // The same messages raised by our code carry our frames.
      "uncaught exception; source = Uncaught; stack = TypeError: Can't call WebSocket send() after close().\n    at file:///w/src/browser/session.ts:12:3\n",
      "uncaught exception; source = Uncaught (in promise); stack = Error: Network connection lost.\n    at fetchFeed (file:///w/src/articles/discover/feed.ts:40:11)\n",
      "uncaught exception; source = Uncaught; stack = TypeError: x is undefined\n    at file:///w/src/app.ts:1:1\n",
      `exception = rust/worker/ffi.rs:110: disconnected: Connection reset by peer\nstack: ${WORKERD}@28a3c60\n`,
      `exception = workerd/api/unsafe.c++:229: failed: jsg.Error: Application called something else.\nstack: ${WORKERD}@28a3c60\n`,
      "[mf:error] AssertionError: sessionInfo must be set before connecting\n    at assert (node-internal:internal_assert:49:15)\n    at connectWarm (file:///w/src/browser/forum-browser.ts:1:1)\n",
      'Sourcemap for "/w/src/app.ts" points to missing source files\n',
      "console warning; message = something else\n",
      // The same Miniflare error raised from our code carries our frame.
      "[mf:error] TypeError: Cannot set properties of undefined (setting 'connectionId')\n    at connectWarm (file:///w/src/browser/forum-browser.ts:1:1)\n",
      // A library's caught close error is hidden only as a whole line, never inside another message.
      "Error: Protocol error: Connection closed. while publishing post 3",
      " ✓ workers test/api/posts.test.ts (40 tests) 2000ms\n",
    ])
      expect(isRuntimeNoise(line), line).toBe(false);
  });
});
