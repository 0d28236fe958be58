// The one small interface over Browser Rendering (SPEC 6): a page of the forum, logged in with a persona's
// cookies, that sends requests to the forum's own endpoints from inside the page (so they carry the
// session exactly as the forum's own web client would). Production, `wrangler dev` and the tests all use
// `@cloudflare/puppeteer` on the BROWSER binding (locally wrangler launches Debian's Chromium). The page
// and the browser are always closed: after the work, on an error and on a timeout.
import puppeteer, { type Browser, type CookieParam } from "@cloudflare/puppeteer";

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
 * Opens the forum at `landingUrl` in a fresh browser with `cookies` set on the forum's host, runs `work`
 * with a session that sends requests from that page, and closes everything whatever happens.
 */
export async function withForumPage<T>(
  /** The BROWSER binding (typed `BrowserRun` by wrangler; puppeteer takes it as a fetcher). */
  binding: unknown,
  options: { landingUrl: string; cookies: CookieParam[]; timeoutMs?: number },
  work: (session: BrowserSession) => Promise<T>,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? BROWSER_OPERATION_TIMEOUT_MS;
  let browser: Browser | undefined;
  let closed = false;
  const close = async () => {
    if (closed || !browser) return;
    closed = true;
    await browser.close().catch(() => undefined);
  };
  const run = async (): Promise<T> => {
    try {
      browser = await puppeteer.launch(binding as Parameters<typeof puppeteer.launch>[0]);
    } catch (err) {
      throw new BrowserError(`the browser could not be started: ${(err as Error).message}`, "launch");
    }
    // A deadline that fired while launching: the browser still has to go.
    if (closed) await browser.close().catch(() => undefined);
    const page = await browser.newPage();
    try {
      if (options.cookies.length > 0) await page.setCookie(...options.cookies);
      try {
        await page.goto(options.landingUrl, { waitUntil: "domcontentloaded", timeout: 30_000 });
      } catch (err) {
        throw new BrowserError(`the forum did not open in the browser: ${(err as Error).message}`, "navigation");
      }
      const session: BrowserSession = {
        async request(req) {
          const result = (await page.evaluate(`(${PAGE_FETCH})(${JSON.stringify(req)})`)) as PageResult;
          if (!result.ok) throw new BrowserError(`no answer from ${new URL(req.url).host}: ${result.error}`, "network");
          return { status: result.status, contentType: result.contentType, text: result.text, url: result.url };
        },
      };
      return await work(session);
    } finally {
      await page.close().catch(() => undefined);
    }
  };
  try {
    return await deadline(run(), timeoutMs, "the browser operation");
  } finally {
    await close();
  }
}
