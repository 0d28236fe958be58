// The one small interface over Browser Rendering (docs/publishing.md): a page of the forum, logged in with a persona's
// cookies, that sends requests to the forum's own endpoints from inside the page (so they carry the
// session exactly as the forum's own web client would). Production, `wrangler dev` and the tests all use
// `@cloudflare/puppeteer` on the BROWSER binding (locally wrangler launches Debian's Chromium). The page
// and its browser context are always closed: after the work, on an error and on a timeout; the browser too,
// unless the workspace keeps it warm for its next operation (BrowserReuse below).
import puppeteer, { type Browser, type BrowserContext, type CookieParam, type Page } from "@cloudflare/puppeteer";

export interface PageRequest {
  method: "GET" | "POST";
  /** Absolute URL (the forum, or the upload form's action). */
  url: string;
  headers?: Record<string, string>;
  /** An application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** A multipart/form-data body: fields in order, then the file (bytes in base64). */
  multipart?: {
    fields: { name: string; value: string }[];
    file: { field: string; name: string; type: string; base64: string };
  };
}

export interface PageResponse {
  status: number;
  contentType: string;
  text: string;
  /** Where the answer came from after redirects (a logged-out page may redirect to a login form). */
  url: string;
}

export interface BrowserSession {
  request(req: PageRequest): Promise<PageResponse>;
}

/** The browser could not do its part (launch, navigation, the request itself, the deadline). */
export class BrowserError extends Error {
  override readonly name = "BrowserError";
  constructor(
    message: string,
    /** `network`: the request left the page but no answer came back (the forum may have acted on it). */
    readonly kind: "launch" | "navigation" | "network" | "timeout",
  ) {
    super(message);
  }
}

export const BROWSER_OPERATION_TIMEOUT_MS = 120_000;

// Runs inside the page. A string, not a function: the Worker's bundler may wrap functions with helpers that
// do not exist in the page, and the Worker project does not load the DOM types.
const PAGE_FETCH = `async (req) => {
  let body;
  const headers = Object.assign({}, req.headers || {});
  if (req.form) {
    body = new URLSearchParams(req.form).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  } else if (req.multipart) {
    body = new FormData();
    for (const f of req.multipart.fields) body.append(f.name, f.value);
    const bin = atob(req.multipart.file.base64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    body.append(req.multipart.file.field, new Blob([bytes], { type: req.multipart.file.type }), req.multipart.file.name);
  }
  try {
    const res = await fetch(req.url, { method: req.method, headers, body, credentials: "include", redirect: "follow" });
    return { ok: true, status: res.status, contentType: res.headers.get("content-type") || "", text: await res.text(), url: res.url };
  } catch (err) {
    return { ok: false, error: String(err && err.message || err) };
  }
}`;

type PageResult = ({ ok: true } & PageResponse) | { ok: false; error: string };

function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BrowserError(`${what} took longer than ${Math.round(ms / 1000)} s`, "timeout")),
      ms,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A browser kept open between the operations of one workspace (docs/publishing.md, "A warm browser"): the
 * workspace's coordinator lends it to the next holder of the browser slot, so a check does not pay for a
 * browser launch (about a second) each time. Every operation still gets its own browser context (an
 * incognito profile: its own cookies, storage and cache), closed when the operation ends, so nothing of one
 * persona's session is ever seen by the next operation.
 */
export interface BrowserReuse {
  /** The session id of the browser lent by the coordinator, if one is warm. */
  sessionId?: string;
  /** How long the coordinator keeps a browser open after an operation (milliseconds); 0 turns reuse off. */
  keepWarmMs: number;
  /**
   * Told once, when the operation is over, what became of the browser: its session id when it was left open
   * for the next operation, null when it was closed.
   */
  keep(sessionId: string | null): void;
}

/**
 * How long a lent warm browser may take to open the forum before a fresh one is launched instead. A healthy
 * one opens it in about a second; one that is closing may never answer.
 */
const WARM_OPEN_MS = 10_000;

/** Browser Rendering's own idle limit: a browser nobody sends a command to for this long shuts itself down. */
const MAX_KEEP_ALIVE_MS = 10 * 60_000;

type Binding = Parameters<typeof puppeteer.launch>[0];

/** Connects to the warm browser `sessionId`; undefined when it is gone (closed, crashed, timed out) or taken. */
async function connectWarm(binding: Binding, sessionId: string | undefined): Promise<Browser | undefined> {
  if (!sessionId) return undefined;
  return puppeteer.connect(binding, sessionId).catch(() => undefined);
}

async function launchBrowser(binding: Binding, reuse: BrowserReuse | undefined): Promise<Browser> {
  // The platform closes an idle browser after keep_alive by itself: a browser whose coordinator never comes
  // back to close it (the object evicted, its alarm lost) still goes shortly after its warm period.
  const keepAlive = reuse && reuse.keepWarmMs > 0 ? Math.min(MAX_KEEP_ALIVE_MS, reuse.keepWarmMs + 60_000) : undefined;
  try {
    return await puppeteer.launch(binding, keepAlive ? { keep_alive: keepAlive } : undefined);
  } catch (err) {
    throw new BrowserError(`the browser could not be started: ${(err as Error).message}`, "launch");
  }
}

interface ForumPage {
  context: BrowserContext;
  page: Page;
}

/** A fresh context of `browser` with `cookies` set, on `landingUrl`; the context is closed if that fails. */
async function openForumPage(browser: Browser, cookies: CookieParam[], landingUrl: string): Promise<ForumPage> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    if (cookies.length > 0) await page.setCookie(...cookies);
    try {
      await page.goto(landingUrl, { waitUntil: "domcontentloaded", timeout: 30_000 });
    } catch (err) {
      throw new BrowserError(`the forum did not open in the browser: ${(err as Error).message}`, "navigation");
    }
    return { context, page };
  } catch (err) {
    await context.close().catch(() => undefined);
    throw err;
  }
}

/** Closes the browser of `sessionId` if it is still open (the coordinator, when a warm browser idled out). */
export async function closeBrowserSession(binding: unknown, sessionId: string): Promise<void> {
  // Already gone (closed by the platform, crashed): nothing to connect to.
  const open = await puppeteer.sessions(binding as Binding).catch(() => undefined);
  if (open && !open.some((session) => session.sessionId === sessionId)) return;
  const browser = await puppeteer.connect(binding as Binding, sessionId).catch(() => undefined);
  await browser?.close().catch(() => undefined);
}

/**
 * Opens the forum at `landingUrl` in a fresh browser context with `cookies` set on the forum's host, runs
 * `work` with a session that sends requests from that page, and closes the context whatever happens. The
 * browser is closed too, unless `reuse` asks to keep it and the operation ended cleanly (its own answer or
 * error, not a browser failure or the deadline): then it is only disconnected and its session id returned.
 */
export async function withForumPage<T>(
  /** The BROWSER binding (typed `BrowserRun` by wrangler; puppeteer takes it as a fetcher). */
  binding: unknown,
  options: { landingUrl: string; cookies: CookieParam[]; timeoutMs?: number; reuse?: BrowserReuse },
  work: (session: BrowserSession) => Promise<T>,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? BROWSER_OPERATION_TIMEOUT_MS;
  const keepWarm = (options.reuse?.keepWarmMs ?? 0) > 0;
  let browser: Browser | undefined;
  let finished = false;
  // Whether the browser is healthy enough to lend to the next operation: set once the work settled by itself.
  let reusable = false;
  // The browser becomes the operation's, unless the deadline fired while it opened: then it still has to go.
  const adopt = async (opened: Browser): Promise<Browser> => {
    if (finished) {
      await opened.close().catch(() => undefined);
      throw new BrowserError("the browser operation was cut by its deadline", "timeout");
    }
    browser = opened;
    return opened;
  };
  const open = async (): Promise<ForumPage> => {
    const { cookies, landingUrl } = options;
    const warm = await connectWarm(binding as Binding, options.reuse?.sessionId);
    if (warm) {
      try {
        const opening = openForumPage(await adopt(warm), cookies, landingUrl);
        return await deadline(opening, WARM_OPEN_MS, "opening the forum in the warm browser");
      } catch (err) {
        if (finished) throw err;
        // A warm browser that was closing (its idle deadline, the platform's keep_alive) accepts the
        // connection and then fails or never answers its first commands: it goes, and a fresh browser does
        // the work, once. Not awaited: a dying browser may not answer its close either.
        void warm.close().catch(() => undefined);
        browser = undefined;
      }
    }
    return openForumPage(await adopt(await launchBrowser(binding as Binding, options.reuse)), cookies, landingUrl);
  };
  const run = async (): Promise<T> => {
    const { context, page } = await open();
    try {
      const session: BrowserSession = {
        async request(req) {
          const result = (await page.evaluate(`(${PAGE_FETCH})(${JSON.stringify(req)})`)) as PageResult;
          if (!result.ok) throw new BrowserError(`no answer from ${new URL(req.url).host}: ${result.error}`, "network");
          return { status: result.status, contentType: result.contentType, text: result.text, url: result.url };
        },
      };
      try {
        const value = await work(session);
        reusable = true;
        return value;
      } catch (err) {
        // The forum's own answers (errors the work raised) leave the browser fine; a browser failure does not.
        reusable = !(err instanceof BrowserError);
        throw err;
      }
    } finally {
      // Closing the context drops its pages, cookies and storage: the next operation starts clean.
      await context.close().catch(() => {
        reusable = false;
      });
    }
  };
  try {
    return await deadline(run(), timeoutMs, "the browser operation");
  } finally {
    finished = true;
    options.reuse?.keep(await settle(browser, keepWarm && reusable));
  }
}

/** Ends the operation's hold on `browser`: disconnects (and returns its session id) or closes it. */
async function settle(browser: Browser | undefined, keep: boolean): Promise<string | null> {
  if (!browser) return null;
  if (keep) {
    const sessionId = browser.sessionId();
    await browser.disconnect().catch(() => undefined);
    return sessionId;
  }
  await browser.close().catch(() => undefined);
  return null;
}
