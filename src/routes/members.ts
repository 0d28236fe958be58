// Members, invitations and roles (docs/api.md, "Members"). Never tools of the tool protocol: like approval,
// they are a person's to do (`tool: false`). Who may call each is the roles table's (src/auth/roles.ts);
// the rules about owners are the service's (src/people/members.ts).
import { z } from "@hono/zod-openapi";
import { idParam, listEnvelope } from "../contracts/params";
import { directoryDb } from "../db/client";
import { callerDb } from "../http/context";
import { apiRoute, createRouter, jsonBody, jsonResponse } from "../http/openapi";
import { ROLES } from "../lib/role";
import { changeRole, invitationPath, inviteMember, membersOf, removeMember } from "../people/members";

const TAG = "Members";
const role = z.enum(ROLES);

export const MemberSchema = z
  .object({
    id: z.number().int().openapi({ description: "The person's id" }),
    email: z.string(),
    name: z.string(),
    role,
    joined_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Member");

const InvitationCreate = z
  .strictObject({
    email: z.email().max(320),
    role: role.openapi({ description: "Only a key with an owner ceiling may invite an owner" }),
  })
  .openapi("InvitationCreate");

const CreatedInvitation = z
  .object({
    invitation: z.object({
      id: z.number().int(),
      email: z.string(),
      role,
      expires_at: z.string().openapi({ format: "date-time" }),
    }),
    url: z.string().openapi({
      description: "The single-use link (7 days) that accepts it: give it to the person; it is shown only here",
    }),
  })
  .openapi("CreatedInvitation");

const RoleChange = z.strictObject({ role }).openapi("MemberRoleChange");

const LAST_OWNER = "The last owner cannot be demoted or removed (`invalid_state`)";

export const membersRouter = createRouter()
  .openapi(
    apiRoute({
      method: "get",
      path: "/actions/members",
      tags: [TAG],
      summary: "List the workspace's members and their roles",
      scope: "read",
      tool: false,
      responses: { 200: jsonResponse(listEnvelope(MemberSchema, "MemberList"), "All members") },
    }),
    async (c) => {
      const data = await membersOf(directoryDb(c.env), c.get("auth").workspaceId);
      return c.json({ data, count: data.length }, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "post",
      path: "/actions/members/invitations",
      tags: [TAG],
      summary: "Invite a person by a single-use link valid 7 days (no email is sent: give them the url)",
      scope: "read_write",
      tool: false,
      conflict: "The email is already a member (`invalid_state`)",
      request: { body: jsonBody(InvitationCreate) },
      responses: { 201: jsonResponse(CreatedInvitation, "The invitation and its link") },
    }),
    async (c) => {
      const auth = c.get("auth");
      const { invitation, token } = await inviteMember(directoryDb(c.env), callerDb(c), auth, c.req.valid("json"));
      return c.json({ invitation, url: new URL(invitationPath(token), c.req.url).toString() }, 201);
    },
  )
  .openapi(
    apiRoute({
      method: "patch",
      path: "/actions/members/{id}",
      tags: [TAG],
      summary: "Change a member's role (owners are made and unmade only by an owner ceiling)",
      scope: "read_write",
      tool: false,
      conflict: LAST_OWNER,
      request: { params: idParam(), body: jsonBody(RoleChange) },
      responses: { 200: jsonResponse(MemberSchema, "The member with the new role") },
    }),
    async (c) => {
      const member = await changeRole(
        directoryDb(c.env),
        callerDb(c),
        c.get("auth"),
        c.req.valid("param").id,
        c.req.valid("json").role,
      );
      return c.json(member, 200);
    },
  )
  .openapi(
    apiRoute({
      method: "delete",
      path: "/actions/members/{id}",
      tags: [TAG],
      summary: "Remove a member: their sessions in this workspace end and the keys they made here are revoked",
      scope: "read_write",
      tool: false,
      conflict: LAST_OWNER,
      request: { params: idParam() },
      responses: { 204: { description: "Removed" } },
    }),
    async (c) => {
      await removeMember(directoryDb(c.env), callerDb(c), c.get("auth"), c.req.valid("param").id);
      return c.body(null, 204);
    },
  );
