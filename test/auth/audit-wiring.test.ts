import { describe, expect, it } from "vitest";
import { callJson, createTestWorkspace } from "../helpers/api";
import { keyWith } from "../helpers/people";

describe("the audit trail of the workspace's exclusions", () => {
  it("records who replaced them and how many of each, and nothing for a refused replacement", async () => {
    const w = await createTestWorkspace("audit exclusions");
    const member = await keyWith(w.id, "read_write", "member");
    const viewer = await keyWith(w.id, "read_write", "viewer");
    const body = { terms: ["giveaway", "promo code"], subreddits: ["spam"], authors: [] };

    const refused = await callJson("/api/v1/actions/monitoring/exclusions", { key: viewer, method: "PUT", body });
    expect(refused.status).toBe(403);
    const stored = await callJson("/api/v1/actions/monitoring/exclusions", { key: member, method: "PUT", body });
    expect(stored.status).toBe(200);

    const events = await callJson("/api/v1/actions/audit-events?action=exclusions.updated", { key: w.writeKey });
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0]).toMatchObject({
      actor: { type: "key" },
      target: { type: "workspace", id: String(w.id) },
      details: { terms: 2, subreddits: 1, authors: 0 },
    });
  });
});
