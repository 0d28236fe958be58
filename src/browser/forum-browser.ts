// The one small interface over Browser Rendering (docs/publishing.md, "Browser operations"): a page of the
// forum's public site opened as a logged-out visitor, with no account and no credential of any persona, to see
// what a visitor sees (a persona's profile, a published post). Production, `wrangler dev` and the tests all
// use `@cloudflare/puppeteer` on the BROWSER binding (locally wrangler launches Debian's Chromium). The page
// and its browser context are always closed: after the work, on an error and on a timeout; the browser too,
// unless the workspace keeps it warm for its next operation (BrowserReuse below).
import puppeteer, { type Browser, type BrowserContext, type HTTPResponse, type Page } from "@cloudflare/puppeteer";

export interface PageResponse {
  status: number;
  contentType: string;
  text: string;
  /** Where the answer came from after redirects. */
  url: string;
}

export interface BrowserSession {
  /** The answer of the page the operation opened (its landing URL), as the visitor's browser got it. */
  landing: PageResponse;
  /** Opens another address in the same page and answers what the browser got. */
  open(url: string): Promise<PageResponse>;
}

/** The browser could not do its part (launch, navigation, the deadline). */
export class BrowserError extends Error {
  override readonly name = "BrowserError";
  constructor(
    message: string,
    readonly kind: "launch" | "navigation" | "timeout",
    /** The address the browser tried to open (navigation). */
    readonly address?: string,
  ) {
    super(message);
  }
}

export const BROWSER_OPERATION_TIMEOUT_MS = 120_000;

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

async function launchOnce(binding: Binding, keepAlive: number | undefined): Promise<Browser> {
  return puppeteer.launch(binding, keepAlive ? { keep_alive: keepAlive } : undefined);
}

/** A fresh browser; a launch that fails is tried once more on another fresh one, then BrowserError `launch`. */
async function launchBrowser(binding: Binding, reuse: BrowserReuse | undefined, retry: boolean): Promise<Browser> {
  // The platform closes an idle browser after keep_alive by itself: a browser whose coordinator never comes
  // back to close it (the object evicted, its alarm lost) still goes shortly after its warm period.
  const keepAlive = reuse && reuse.keepWarmMs > 0 ? Math.min(MAX_KEEP_ALIVE_MS, reuse.keepWarmMs + 60_000) : undefined;
  try {
    return await launchOnce(binding, keepAlive);
  } catch (first) {
    if (!retry) throw new BrowserError(`the browser could not be started: ${(first as Error).message}`, "launch");
    try {
      return await launchOnce(binding, keepAlive);
    } catch (err) {
      throw new BrowserError(`the browser could not be started, twice: ${(err as Error).message}`, "launch");
    }
  }
}

interface ForumPage {
  context: BrowserContext;
  page: Page;
  landing: PageResponse;
}

async function answerOf(response: HTTPResponse | null, url: string): Promise<PageResponse> {
  if (!response) return { status: 0, contentType: "", text: "", url };
  return {
    status: response.status(),
    contentType: response.headers()["content-type"] ?? "",
    text: await response.text().catch(() => ""),
    url: response.url(),
  };
}

async function navigate(page: Page, url: string): Promise<PageResponse> {
  try {
    return await answerOf(await page.goto(url, { waitUntil: "domcontentloaded", timeout: 30_000 }), url);
  } catch (err) {
    throw new BrowserError(`the browser could not open ${url}: ${(err as Error).message}`, "navigation", url);
  }
}

/** A fresh context (no cookies, no storage: a logged-out visitor) of `browser` on `landingUrl`. */
async function openForumPage(browser: Browser, landingUrl: string): Promise<ForumPage> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    return { context, page, landing: await navigate(page, landingUrl) };
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
 * Opens `landingUrl` in a fresh browser context as a logged-out visitor, runs `work` with the page's answer,
 * and closes the context whatever happens. The browser is closed too, unless `reuse` asks to keep it and the operation ended cleanly (its own answer or
 * error, not a browser failure or the deadline): then it is only disconnected and its session id returned.
 */
export async function withForumPage<T>(
  /** The BROWSER binding (typed `BrowserRun` by wrangler; puppeteer takes it as a fetcher). */
  binding: unknown,
  options: { landingUrl: string; timeoutMs?: number; reuse?: BrowserReuse },
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
    const { landingUrl } = options;
    const warm = await connectWarm(binding as Binding, options.reuse?.sessionId);
    if (warm) {
      try {
        const opening = openForumPage(await adopt(warm), landingUrl);
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
    // With no warm browser to fall back from, a fresh launch that fails is itself tried once more.
    return openForumPage(await adopt(await launchBrowser(binding as Binding, options.reuse, !warm)), landingUrl);
  };
  const run = async (): Promise<T> => {
    const { context, page, landing } = await open();
    try {
      const session: BrowserSession = { landing, open: (url) => navigate(page, url) };
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
