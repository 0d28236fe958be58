// The served OpenAPI document, snapshotted so no change to it goes unnoticed. After an intended change:
// `npx vitest run test/api -u`, and review the diff of __snapshots__/openapi.json.
import { expect, it } from "vitest";
import { callJson } from "../helpers/api";

it("the OpenAPI document matches the reviewed snapshot", async () => {
  const res = await callJson("/api/v1/openapi.json");
  expect(res.status).toBe(200);
  await expect(`${JSON.stringify(res.body, null, 2)}\n`).toMatchFileSnapshot("./__snapshots__/openapi.json");
});
