/// <reference types="vite/client" />
// The roles table of docs/security.md ("People and roles") against the one in code (src/auth/roles.ts): each
// row of the page names a group of operations, and the least role it ticks must be the least role the code
// gives every operation of that group; every operation of the code falls in exactly one row.
import { describe, expect, it } from "vitest";
import { type Access, API_OPERATIONS, CONSOLE_OPERATIONS } from "../../src/auth/roles";
import { ROLES } from "../../src/lib/role";

const PAGE = Object.values(
  import.meta.glob("/docs/security.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>,
)[0]!;

interface Row {
  label: string;
  cells: string[];
}

/** The first table under "## People and roles": its operation label and the four role cells of each row. */
function docsRows(): Row[] {
  const section = PAGE.split(/^## People and roles$/m)[1]!.split(/^## /m)[0]!;
  const lines = section.split("\n").filter((l) => l.startsWith("|"));
  const header = lines[0]!.split("|").map((c) => c.trim());
  expect(header.slice(2, 6)).toEqual([...ROLES]);
  return lines.slice(2).map((line) => {
    const [, label, ...cells] = line.split("|").map((c) => c.trim());
    return { label: label!, cells: cells.slice(0, 4) };
  });
}

type Op = { door: "api" | "console"; method: string; path: string; access: Access };
const OPERATIONS: Op[] = [
  ...Object.entries(API_OPERATIONS).map(([op, access]) => ({ door: "api" as const, op, access })),
  ...Object.entries(CONSOLE_OPERATIONS).map(([op, access]) => ({ door: "console" as const, op, access })),
].map(({ door, op, access }) => {
  const [method, path] = op.split(" ") as [string, string];
  return { door, method, path, access };
});

const isAccount = (o: Op) =>
  o.door === "console" && (o.path.startsWith("/settings/account") || o.path === "/workspace");
const isManaging = (o: Op) =>
  (o.door === "api" &&
    (o.path === "/actions/audit-events" || (o.path.startsWith("/actions/members") && o.method !== "GET"))) ||
  (o.door === "console" && (o.path.startsWith("/settings/members") || o.path === "/settings/audit"));
const isWebhookChange = (o: Op) => o.door === "api" && o.path.startsWith("/actions/webhooks") && o.method !== "GET";
const isKeyMaking = (o: Op) => o.door === "console" && o.method === "POST" && o.path === "/settings/api/keys";
const isKeyRevoking = (o: Op) => o.door === "console" && o.path === "/settings/api/keys/:key_id/revoke";
const isRead = (o: Op) =>
  (o.method === "GET" || (o.door === "console" && o.path === "/sign-out")) && !isAccount(o) && !isManaging(o);
const special = [isAccount, isManaging, isWebhookChange, isKeyMaking, isKeyRevoking, isRead];

/** Which operations each row of the page is about, by the row's first words. */
const GROUPS: [RegExp, (o: Op) => boolean][] = [
  [/^every read/, isRead],
  [/^triage, keywords/, (o) => !special.some((is) => is(o))],
  [/^webhooks/, isWebhookChange],
  [/^members: invite/, isManaging],
  [/^invite, make, unmake or remove an owner/, () => false], // a rule of the service (src/people/members.ts)
  [/^make an API key/, isKeyMaking],
  [/^revoke a key/, isKeyRevoking],
  [/^Settings › Account/, isAccount],
];

describe("the roles table of docs/security.md", () => {
  it("has a row for each group of operations and no other", () => {
    const rows = docsRows();
    expect(rows.map((r) => GROUPS.findIndex(([label]) => label.test(r.label)))).toEqual(GROUPS.map((_, i) => i));
  });

  it("ticks, for every operation, the least role src/auth/roles.ts gives it, and names person-only ones", () => {
    const rows = docsRows();
    const mismatches: string[] = [];
    for (const op of OPERATIONS) {
      const name = `${op.door} ${op.method} ${op.path}`;
      const groups = GROUPS.map(([, is], i) => (is(op) ? i : -1)).filter((i) => i >= 0);
      if (groups.length !== 1) {
        mismatches.push(`${name}: in rows ${JSON.stringify(groups)}`);
        continue;
      }
      const row = rows[groups[0]!]!;
      const least = row.cells.findIndex((c) => c !== "");
      if (ROLES[least] !== op.access.role) mismatches.push(`${name}: docs say ${ROLES[least]}, code ${op.access.role}`);
      if (Boolean(op.access.person) !== /person sessions only/.test(row.cells[least]!))
        mismatches.push(`${name}: person-only in one and not the other`);
    }
    expect(mismatches).toEqual([]);
  });
});
