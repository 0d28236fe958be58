// Cookie-export JSON (what browser extensions such as "Cookie-Editor" or "EditThisCookie" write) mapped to the cookies
// the browser sets. Only name, value, path, expiry and the flags are kept: the domain the export names (`.reddit.com`)
// is replaced by the host of FORUM_BASE_URL when the cookies are set (docs/publishing.md, "Personas"), so a local forum
// and the real one take the same export.

/** One cookie as exported (fields beyond name and value are optional; extras are accepted and mapped). */
export interface ExportedCookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  expires?: number;
  expirationDate?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string | null;
  hostOnly?: boolean;
  session?: boolean;
  storeId?: string | null;
  id?: number | string;
}

/** What is stored (encrypted) and later set in the browser. */
export interface StoredCookie {
  name: string;
  value: string;
  path: string;
  /** Unix seconds; absent for a session cookie. */
  expires?: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: "Strict" | "Lax" | "None";
}

const SAME_SITE: Record<string, StoredCookie["sameSite"]> = {
  strict: "Strict",
  lax: "Lax",
  none: "None",
  no_restriction: "None",
};

export function mapExportedCookie(cookie: ExportedCookie): StoredCookie {
  const expiry = cookie.expires ?? cookie.expirationDate;
  const sameSite = cookie.sameSite ? SAME_SITE[cookie.sameSite.toLowerCase()] : undefined;
  return {
    name: cookie.name,
    value: cookie.value,
    path: cookie.path?.startsWith("/") ? cookie.path : "/",
    // `session: true` or a non-positive expiry (-1 in Chrome's own export) is a session cookie.
    ...(expiry !== undefined && expiry > 0 && cookie.session !== true ? { expires: Math.floor(expiry) } : {}),
    httpOnly: cookie.httpOnly ?? false,
    secure: cookie.secure ?? false,
    ...(sameSite ? { sameSite } : {}),
  };
}

/** The same name and path twice: the last one wins, as in a browser's cookie jar. */
export function mapExportedCookies(cookies: ExportedCookie[]): StoredCookie[] {
  const byKey = new Map<string, StoredCookie>();
  for (const cookie of cookies) {
    const mapped = mapExportedCookie(cookie);
    byKey.set(`${mapped.name}\u0000${mapped.path}`, mapped);
  }
  return [...byKey.values()];
}

/**
 * The cookies as the browser sets them on the forum's host. Over plain http (a local forum) `Secure` cookies
 * would be dropped by the browser, and `SameSite=None` needs `Secure`, so both are relaxed there.
 */
export function cookiesForForum(cookies: StoredCookie[], forumBaseUrl: string) {
  const base = new URL(forumBaseUrl);
  const https = base.protocol === "https:";
  return cookies.map((c) => ({
    name: c.name,
    value: c.value,
    domain: base.hostname,
    path: c.path,
    ...(c.expires !== undefined ? { expires: c.expires } : {}),
    httpOnly: c.httpOnly,
    secure: https && c.secure,
    ...(c.sameSite && (https || c.sameSite !== "None") ? { sameSite: c.sameSite } : {}),
  }));
}
