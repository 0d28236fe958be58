// People in a test workspace, made through the product's own code (a person's row by src/db, their
// password by src/people/passwords.ts), and signed in through the console's own password form.
import { env } from "cloudflare:workers";
import { createKey } from "../../src/auth/issue-key";
import type { KeyScope } from "../../src/auth/keys";
import { directoryDb } from "../../src/db/client";
import { findPersonByEmail, insertMembership, insertPerson } from "../../src/db/people";
import type { Role } from "../../src/lib/role";
import { hashPassword } from "../../src/people/passwords";
import { type FormSession, getPage, postForm, signInForm } from "./console-client";

export const PASSWORD = "correct horse battery staple";

/** A person (made once per email) who is a member of the workspace with the role. */
export async function addMember(workspaceId: number, role: Role, email: string, name = email.split("@")[0]!) {
  const dir = directoryDb(env);
  const person =
    (await findPersonByEmail(dir, email)) ??
    (await insertPerson(dir, { email, name, ...(await hashPassword(PASSWORD)) }));
  await insertMembership(dir, workspaceId, person.id, role).run();
  return person;
}

/** A key of the workspace with a scope and a role ceiling. */
export async function keyWith(workspaceId: number, scope: KeyScope, role: Role): Promise<string> {
  return (await createKey(directoryDb(env), workspaceId, { name: `${scope} ${role}`, scope, role })).key;
}

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
export const sessionCookieOf = (res: Response) => {
  const value = /tw_console=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  return value ? `tw_console=${value}` : undefined;
};

/** Signs in with email and password through the console's form; the session's cookie and CSRF token. */
export async function signInAs(email: string, password = PASSWORD, page = "/app/posts"): Promise<FormSession> {
  const res = await postForm("/app/sign-in/password", await signInForm(), { email, password, next: page });
  if (res.status !== 303) throw new Error(`person sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = sessionCookieOf(res)!;
  return { cookie, csrf: csrfOf(await (await getPage(page, cookie)).text()) };
}
