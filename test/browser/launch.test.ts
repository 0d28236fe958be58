import { env } from "cloudflare:workers";
import puppeteer from "@cloudflare/puppeteer";
import { expect, it } from "vitest";

// The BROWSER binding drives a real Chromium (locally Debian's, set up by scripts/setup-browser.mjs): the
// persona checks and publishing of the coming issues stand on this.
it("opens a page of the local fixture server in a real browser and reads what it rendered", async () => {
  const browser = await puppeteer.launch(env.BROWSER);
  try {
    const page = await browser.newPage();
    await page.goto(`${env.FIXTURE_ORIGIN}/`);
    // Strings, not functions: they run in the page, whose DOM types this Worker project does not load.
    const heading = await page.evaluate('document.querySelector("h1")?.textContent');
    expect(heading).toBe("fixture");
    const agent = await page.evaluate("navigator.userAgent");
    expect(agent).toMatch(/Chrome\//);
  } finally {
    await browser.close();
  }
}, 60_000);
