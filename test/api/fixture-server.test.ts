import { env } from "cloudflare:workers";
import { expect, it } from "vitest";

it("reaches the local fixture server over real HTTP", async () => {
  const res = await fetch(`${env.FIXTURE_ORIGIN}/__echo?x=1`, { headers: { "user-agent": "probe" } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { path: string; headers: Record<string, string> };
  expect(body.path).toBe("/__echo?x=1");
  expect(body.headers["user-agent"]).toBe("probe");
  const page = await fetch(`${env.FIXTURE_ORIGIN}/`);
  expect(await page.text()).toContain("fixture");
});
