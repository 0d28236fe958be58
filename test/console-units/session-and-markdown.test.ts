// The console's pure pieces, in the Workers runtime: session cookies and CSRF tokens, and the draft renderer's
// escaping and allowlist. The pages themselves are tested in Chromium (test/console/).
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/console/markdown";
import { checkCsrf, consoleSigningKey, csrfToken, openSession, sealSession } from "../../src/console/session";

const render = async (md: string, images: { url: string; alt: string; caption: string | null }[] = []) =>
  (await Promise.all(renderMarkdown(md, images).map((node) => String(node)))).join("");

describe("console sessions", () => {
  it("opens only a well-signed, unexpired cookie, and the CSRF token is bound to its session", async () => {
    const key = await consoleSigningKey("secret-a");
    const now = new Date("2026-11-24T00:00:00Z");
    const expiresAt = now.getTime() / 1000 + 60;
    const cookie = await sealSession(key, { keyId: 7, expiresAt, nonce: "n".repeat(24) });
    expect(await openSession(key, cookie, now)).toEqual({ keyId: 7, expiresAt, nonce: "n".repeat(24) });
    expect(await openSession(key, cookie, new Date(now.getTime() + 61_000))).toBeUndefined();
    expect(await openSession(key, cookie.replace(/^7\./, "8."), now)).toBeUndefined();
    expect(await openSession(await consoleSigningKey("secret-b"), cookie, now)).toBeUndefined();
    expect(await openSession(key, undefined, now)).toBeUndefined();

    const token = await csrfToken(key, "session", "n".repeat(24));
    expect(await checkCsrf(key, "session", "n".repeat(24), token)).toBe(true);
    expect(await checkCsrf(key, "session", "m".repeat(24), token)).toBe(false);
    expect(await checkCsrf(key, "signin", "n".repeat(24), token)).toBe(false);
    expect(await checkCsrf(key, "session", "n".repeat(24), undefined)).toBe(false);
  });
});

describe("draft renderer", () => {
  it("escapes markup, keeps only http(s) links and shows the post's own images inline", async () => {
    const html = await render(
      [
        "# Title <script>alert(1)</script>",
        "",
        "Text with **bold**, *italic*, `code` and a [bad link](javascript:alert%281%29) and a [good one](https://example.com/a).",
        "",
        "[Diagram](https://blog.example/d.png)  ",
        "*The caption*",
        "",
        "[Not ours](https://evil.example/x.png)",
        "",
        "- one",
        "- two",
        "",
        // On the forum an indented line right after a list continues its last item, so a paragraph comes between.
        "Then:",
        "",
        "    code <b>block</b>",
      ].join("\n"),
      [{ url: "https://blog.example/d.png", alt: "Diagram", caption: "The caption" }],
    );
    expect(html).toContain("<h1>Title &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
    expect(html).not.toContain("<script");
    expect(html).not.toContain('href="javascript');
    expect(html).toContain("<span>bad link</span>");
    expect(html).toContain('<a href="https://example.com/a" rel="nofollow noopener noreferrer">good one</a>');
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>italic</em>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain('<img src="https://blog.example/d.png" alt="Diagram" loading="lazy"/>');
    expect(html).toContain("<figcaption>The caption</figcaption>");
    expect(html).not.toContain('<img src="https://evil.example');
    expect(html).toContain("<ul><li>one</li><li>two</li></ul>");
    expect(html).toContain("<pre><code>code &lt;b&gt;block&lt;/b&gt;</code></pre>");
  });
});
