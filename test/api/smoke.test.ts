import { describe, expect, it } from "vitest";
import { callJson, createTestWorkspace } from "../helpers/api";

describe("service smoke", () => {
  it("serves keywords for a key and refuses without one", async () => {
    const ws = await createTestWorkspace();
    const ok = await callJson("/api/v1/keywords", { key: ws.readKey });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: [], count: 0 });
    const denied = await callJson("/api/v1/keywords");
    expect(denied.status).toBe(401);
    expect(denied.body.error.code).toBe("unauthorized");
    expect(denied.res.headers.get("x-request-id")).toBe(denied.body.error.request_id);
  });
});
