import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { assertFetchableUrl, isBlockedAddress } from "../../src/outbound/address-policy";
import { FetchError } from "../../src/outbound/fetch-error";
import { parseRobots, robotsAllows } from "../../src/outbound/robots";
import { safeFetch } from "../../src/outbound/safe-fetch";

const open = { allowPrivate: true };
const closed = { allowPrivate: false, dohUrl: null };

async function fetchError(promise: Promise<unknown>): Promise<FetchError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(FetchError);
    return err as FetchError;
  }
  throw new Error("expected the fetch to fail");
}

describe("addresses (docs/security.md)", () => {
  it.each([
    "http://127.0.0.1/",
    "http://127.1.2.3:8080/x",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[fd00:ec2::254]/",
    "http://[fe80::1]/",
    "http://[2002:7f00:1::]/", // 6to4 of 127.0.0.1
    "http://[2002:a9fe:a9fe::1]/", // 6to4 of 169.254.169.254
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", // Teredo
    "http://2130706433/", // 127.0.0.1 written as one number
    "http://0x7f.1/",
    "http://localhost:8787/",
    "http://api.localhost/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://printer.local/",
    "http://intranet/",
  ])("refuses %s when private addresses are not allowed", async (url) => {
    const err = await fetchError(safeFetch(url, { policy: closed, kind: "html" }));
    expect(err.code).toBe("blocked_address");
  });

  it("allows public literal addresses and names", () => {
    expect(isBlockedAddress("93.184.215.14")).toBe(false);
    expect(isBlockedAddress("2606:4700::1111")).toBe(false);
    expect(isBlockedAddress("2002:5db8:d70e::1")).toBe(false); // 6to4 of the public 93.184.215.14
    expect(assertFetchableUrl("https://blog.example.com/post", false).hostname).toBe("blog.example.com");
    expect(assertFetchableUrl("http://127.0.0.1/", true).hostname).toBe("127.0.0.1");
  });

  it.each([
    ["ftp://example.com/feed.xml", "bad_url"],
    ["javascript:alert(1)", "bad_url"],
    ["file:///etc/passwd", "bad_url"],
    ["https://user:secret@example.com/", "bad_url"],
    ["not a url", "bad_url"],
  ])("refuses %s (%s)", async (url, code) => {
    const err = await fetchError(safeFetch(url, { policy: open, kind: "html" }));
    expect(err.code).toBe(code);
  });

  it("refuses a hostname that resolves to a private address (DNS over HTTPS)", async () => {
    const policy = { allowPrivate: false, dohUrl: `${env.FIXTURE_ORIGIN}/sync/dns-query` };
    const err = await fetchError(safeFetch("http://rebind.private.test/", { policy, kind: "html" }));
    expect(err.code).toBe("blocked_address");
    expect(err.message).toContain("10.1.2.3");
  });
});

describe("fetching", () => {
  it("sends a descriptive User-Agent", async () => {
    const res = await safeFetch(`${env.FIXTURE_ORIGIN}/__echo`, { policy: open, kind: "html" });
    const echoed = JSON.parse(new TextDecoder().decode(res.bytes)) as { headers: Record<string, string> };
    expect(echoed.headers["user-agent"]).toMatch(/^threadwatch\/\d.*\+https?:\/\//);
  });

  it("follows up to 5 redirects and reports where it arrived", async () => {
    const res = await safeFetch(`${env.FIXTURE_ORIGIN}/sync/redirect/5`, { policy: open, kind: "html" });
    expect(res.url).toBe(`${env.FIXTURE_ORIGIN}/sync/redirect/0`);
    expect(new TextDecoder().decode(res.bytes)).toContain("arrived");
  });

  it("stops at the sixth redirect", async () => {
    const err = await fetchError(safeFetch(`${env.FIXTURE_ORIGIN}/sync/redirect/6`, { policy: open, kind: "html" }));
    expect(err.code).toBe("too_many_redirects");
  });

  it("re-checks every redirect target", async () => {
    const err = await fetchError(
      safeFetch(`${env.FIXTURE_ORIGIN}/sync/redirect-to-file`, { policy: open, kind: "html" }),
    );
    expect(err.code).toBe("bad_url");
    const robots = await fetchError(
      safeFetch(`${env.FIXTURE_ORIGIN}/sync/redirect-to-robots-disallowed`, { policy: open, kind: "html" }),
    );
    expect(robots.code).toBe("robots_disallowed");
  });

  it("refuses a redirect to an address that is no URL, naming it (as an image fetch too)", async () => {
    const url = `${env.FIXTURE_ORIGIN}/sync/redirect-malformed`;
    const err = await fetchError(safeFetch(url, { policy: open, kind: "html" }));
    expect(err.code).toBe("bad_url");
    expect(err.message).toContain(url);
    expect(err.message).toContain("http://blog.exa mple.com/post");
    const { fetchImage } = await import("../../src/articles");
    expect((await fetchError(fetchImage(url, { policy: open }))).code).toBe("bad_url");
  });

  it("caps a streamed body without Content-Length at the kind's limit (HTML 5 MB)", async () => {
    const err = await fetchError(safeFetch(`${env.FIXTURE_ORIGIN}/sync/huge`, { policy: open, kind: "html" }));
    expect(err.code).toBe("too_large");
    // The same 6 MB are fine for a sitemap (20 MB cap).
    const res = await safeFetch(`${env.FIXTURE_ORIGIN}/sync/huge`, { policy: open, kind: "sitemap" });
    expect(res.bytes.byteLength).toBeGreaterThan(5 * 1024 * 1024);
  });

  it("refuses a declared oversize body before reading it", async () => {
    const err = await fetchError(safeFetch(`${env.FIXTURE_ORIGIN}/sync/huge-declared`, { policy: open, kind: "feed" }));
    expect(err.code).toBe("too_large");
  });

  it("times out on slow headers and on a slow body", async () => {
    const policy = { allowPrivate: true, timeoutMs: 400 };
    const started = Date.now();
    const headers = await fetchError(safeFetch(`${env.FIXTURE_ORIGIN}/sync/slow`, { policy, kind: "html" }));
    expect(headers.code).toBe("timeout");
    const body = await fetchError(safeFetch(`${env.FIXTURE_ORIGIN}/sync/slow-body`, { policy, kind: "html" }));
    expect(body.code).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("keeps one deadline when a redirect leads to a host whose robots.txt does not answer", async () => {
    // 1.2 s to the redirect, then robots.txt of the new origin hangs: the fetch ends at its 1.5 s deadline,
    // not 1.5 s after the redirect (the robots.txt fetch of a later hop had a deadline of its own).
    const policy = {
      allowPrivate: true,
      timeoutMs: 1500,
      userAgent: `threadwatch-test slow-robots-on-localhost ${Date.now()}`,
    };
    const started = Date.now();
    const err = await fetchError(safeFetch(`${env.FIXTURE_ORIGIN}/sync/redirect-later/1200`, { policy, kind: "html" }));
    const elapsed = Date.now() - started;
    expect(err.code).toBe("timeout");
    expect(err.message).toContain("within 1500 ms");
    expect(elapsed).toBeGreaterThanOrEqual(1200);
    expect(elapsed).toBeLessThan(2500);
  });

  it("reports HTTP errors with their status", async () => {
    const err = await fetchError(
      safeFetch(`${env.FIXTURE_ORIGIN}/blog/no-such-page.html`, { policy: open, kind: "html" }),
    );
    expect(err.code).toBe("http_status");
    expect(err.status).toBe(404);
  });
});

describe("robots.txt", () => {
  it("honours the host's robots.txt", async () => {
    const err = await fetchError(
      safeFetch(`${env.FIXTURE_ORIGIN}/sync/private-by-robots/page.html`, { policy: open, kind: "html" }),
    );
    expect(err.code).toBe("robots_disallowed");
    const ours = await fetchError(
      safeFetch(`${env.FIXTURE_ORIGIN}/sync/no-threadwatch/x`, { policy: open, kind: "html" }),
    );
    expect(ours.code).toBe("robots_disallowed");
    // With a group of our own, the `*` group does not apply: this one gets through to the server (a 404).
    const others = await fetchError(
      safeFetch(`${env.FIXTURE_ORIGIN}/sync/only-for-others/x`, { policy: open, kind: "html" }),
    );
    expect(others.code).toBe("http_status");
    // Allow beats Disallow when it is the longer match.
    const allowed = await fetchError(
      safeFetch(`${env.FIXTURE_ORIGIN}/sync/private-by-robots/but-this-one`, { policy: open, kind: "html" }),
    );
    expect(allowed.code).toBe("http_status");
  });

  it("finds our group by its product token, case-insensitively and exactly (RFC 9309 2.2.1)", () => {
    const allows = (text: string, path: string) =>
      robotsAllows(parseRobots(text), new URL(path, "https://example.com"));
    // A line naming our crawler as it introduces itself in the User-Agent header is our group.
    expect(allows("User-agent: *\nAllow: /\n\nUser-agent: ThreadWatch/1.0\nDisallow: /", "/post")).toBe(false);
    // A crawler whose name is only part of ours ('thread', 'watch'), or a line with no name, is not us.
    for (const other of ["thread", "watch", "ad", ""]) {
      expect(allows(`User-agent: *\nDisallow: /\n\nUser-agent: ${other}\nAllow: /`, "/post"), other).toBe(false);
    }
  });

  it("honours the rules within the first 500 KiB of a longer robots.txt (RFC 9309 2.5)", async () => {
    const policy = { allowPrivate: true, userAgent: `threadwatch-test huge-robots ${Date.now()}` };
    const err = await fetchError(safeFetch(`${env.FIXTURE_ORIGIN}/sync/redirect/0`, { policy, kind: "html" }));
    expect(err.code).toBe("robots_disallowed");
  });

  it("applies longest match, Allow on ties, wildcards and end anchors (RFC 9309)", () => {
    const robots = parseRobots(
      [
        "User-agent: *",
        "Disallow: /private/",
        "Allow: /private/public",
        "Disallow: /*.pdf$",
        "Disallow: /tmp",
        "Allow: /tmp",
        "",
        "Sitemap: https://example.com/sitemap.xml",
      ].join("\n"),
    );
    const allows = (path: string) => robotsAllows(robots, new URL(path, "https://example.com"));
    expect(allows("/private/x")).toBe(false);
    expect(allows("/private/public/y")).toBe(true);
    expect(allows("/files/report.pdf")).toBe(false);
    expect(allows("/files/report.pdf?x=1")).toBe(true);
    expect(allows("/tmp/file")).toBe(true);
    expect(allows("/blog/post")).toBe(true);
    expect(robots.sitemaps).toEqual(["https://example.com/sitemap.xml"]);
  });
});

describe("images", () => {
  it("fetches an image and names its type from its bytes", async () => {
    const { fetchImage } = await import("../../src/articles");
    const image = await fetchImage(`${env.FIXTURE_ORIGIN}/blog/images/diagram.png`, { policy: open });
    expect(image.contentType).toBe("image/png");
    expect(image.bytes.byteLength).toBeGreaterThan(60);
  });

  it("refuses a response that is not an image, and a private address", async () => {
    const { fetchImage } = await import("../../src/articles");
    const err = await fetchError(fetchImage(`${env.FIXTURE_ORIGIN}/blog/feed.xml`, { policy: open }));
    expect(err.code).toBe("parse");
    const blocked = await fetchError(fetchImage("http://169.254.169.254/latest/meta-data/", { policy: closed }));
    expect(blocked.code).toBe("blocked_address");
  });
});

describe("unreachable hosts", () => {
  it("report the network failure, not a robots.txt refusal", async () => {
    const err = await fetchError(safeFetch("http://127.0.0.1:1/feed.xml", { policy: open, kind: "feed" }));
    expect(err.code).toBe("network");
    // The address asked for, not robots.txt's, and what happened to it.
    expect(err.message).toMatch(/^could not fetch http:\/\/127\.0\.0\.1:1\/feed\.xml: /);
    expect(err.message).not.toContain("robots.txt");
    expect(err.message).toMatch(/refused|connection failed/);
  });
});
