// Every console page is a standards-mode HTML document, and an address the console does not have is its HTML
// 404 page for a signed-in person too (the Worker's JSON 404 answered before: a mounted app's notFound is not
// asked).
import { beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../helpers/api";
import { type FormSession, getPage, signedIn } from "../helpers/console-client";

let ws: TestWorkspace;
let session: FormSession;
beforeAll(async () => {
  ws = await createTestWorkspace("console pages");
  session = await signedIn(ws.writeKey);
});

describe("console pages", () => {
  it("start with the doctype, signed in or not", async () => {
    for (const [path, cookie] of [
      ["/app/sign-in", undefined],
      ["/app/posts", session.cookie],
      ["/app/keywords", session.cookie],
      ["/app/settings/api", session.cookie],
    ] as const) {
      const res = await getPage(path, cookie);
      expect(res.status, path).toBe(200);
      expect((await res.text()).slice(0, 15).toLowerCase(), path).toBe("<!doctype html>");
    }
  });

  it("answer a mistyped address with the HTML 404 page while signed in", async () => {
    for (const path of ["/app/nope", "/app/posts/5", "/app/syncs/1/items"]) {
      const res = await getPage(path, session.cookie);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toContain("text/html");
      const html = await res.text();
      expect(html.slice(0, 15).toLowerCase()).toBe("<!doctype html>");
      expect(html).toContain("There is no such page in the console.");
    }
  });
});
