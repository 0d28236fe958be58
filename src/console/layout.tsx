// The frame of every console page, and the small pieces the pages share (forms with their CSRF token,
// field errors, badges, notices).
import { raw } from "hono/html";
import type { Child, PropsWithChildren } from "hono/jsx";
import type { ConsoleSession } from "./context";

const NAV = [
  { href: "/app/posts", label: "Inbox" },
  { href: "/app/insights", label: "Insights" },
  { href: "/app/keywords", label: "Keywords" },
  { href: "/app/competitors", label: "Competitors" },
  { href: "/app/syncs", label: "Blog sync" },
  { href: "/app/personas", label: "Personas" },
  { href: "/app/settings/api", label: "Settings › API" },
  { href: "/app/settings/account", label: "Account" },
  { href: "/app/settings/members", label: "Members" },
  { href: "/app/settings/audit", label: "Audit" },
];

/** Who is signed in, and for a person in several workspaces the switch between them. */
function Who({ session }: { session: ConsoleSession }) {
  const person = session.person;
  if (!person)
    return (
      <span>
        Workspace {session.auth.workspaceId} · {session.canWrite ? "read & write" : "read only"}
      </span>
    );
  const current = person.workspaces.find((w) => w.workspaceId === person.workspaceId);
  return (
    <>
      <span id="who">{`${person.person.name} · ${current?.name ?? `Workspace ${person.workspaceId}`} · ${person.role}`}</span>
      {person.workspaces.length > 1 ? (
        <form method="post" action="/app/workspace" class="inline">
          <input type="hidden" name="_csrf" value={session.csrf} />
          <select id="f-workspace" name="workspace_id" aria-label="Workspace">
            {person.workspaces.map((w) => (
              <option value={String(w.workspaceId)} selected={w.workspaceId === person.workspaceId}>
                {`${w.name} (${w.role})`}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary">
            Switch
          </button>
        </form>
      ) : null}
    </>
  );
}

interface PageProps {
  title: string;
  /** The nav entry this page belongs to. */
  section?: string;
  session?: ConsoleSession;
}

/** Every page starts with the doctype: without it browsers lay the page out in quirks mode. */
export function Page({ title, section, session, children }: PropsWithChildren<PageProps>) {
  return (
    <>
      {raw("<!doctype html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="referrer" content="same-origin" />
          <title>{`${title} · threadwatch`}</title>
          <link rel="stylesheet" href="/app/assets/console.css" />
          <script src="/app/assets/console.js" defer />
        </head>
        <body>
          <header class="top">
            <a class="brand" href="/app/posts">
              threadwatch
            </a>
            {session ? (
              <>
                <nav aria-label="Console">
                  <ul>
                    {NAV.filter((item) => session.can("GET", item.href.slice(4))).map((item) => (
                      <li>
                        <a href={item.href} aria-current={section === item.href ? "page" : undefined}>
                          {item.label}
                        </a>
                      </li>
                    ))}
                  </ul>
                </nav>
                <div class="who">
                  <Who session={session} />
                  <form method="post" action="/app/sign-out" class="inline">
                    <input type="hidden" name="_csrf" value={session.csrf} />
                    <button type="submit" class="secondary">
                      Sign out
                    </button>
                  </form>
                </div>
              </>
            ) : null}
          </header>
          <main>
            <h1>{title}</h1>
            {children}
          </main>
        </body>
      </html>
    </>
  );
}

/** A POST form of the session: carries the CSRF token. Read-only sessions get no forms that write. */
export function PostForm({
  session,
  action,
  children,
  class: className,
}: PropsWithChildren<{ session: ConsoleSession; action: string; class?: string }>) {
  return (
    <form method="post" action={action} class={className}>
      <input type="hidden" name="_csrf" value={session.csrf} />
      {children}
    </form>
  );
}

export type FieldErrors = Record<string, string>;

/** A labelled text input with its error beside it and the entered value kept. */
export function Field(props: {
  name: string;
  label: string;
  value?: string | number | null;
  errors?: FieldErrors;
  type?: string;
  required?: boolean;
  placeholder?: string;
  min?: number;
  max?: number;
  idPrefix?: string;
  /** Takes the row's free width (a long address stays readable). */
  wide?: boolean;
}) {
  const id = `${props.idPrefix ?? "f"}-${props.name}`;
  const error = props.errors?.[props.name];
  return (
    <div class={props.wide ? "wide" : undefined}>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value ?? ""}
        required={props.required}
        placeholder={props.placeholder}
        min={props.min}
        max={props.max}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Checkbox(props: { name: string; label: string; checked: boolean; idPrefix?: string }) {
  const id = `${props.idPrefix ?? "f"}-${props.name}`;
  return (
    <label class="inline" for={id}>
      <input id={id} type="checkbox" name={props.name} value="true" checked={props.checked} />
      {props.label}
    </label>
  );
}

export function Notice({ kind, children }: PropsWithChildren<{ kind?: "good" | "bad" }>) {
  return (
    <div class={`notice${kind ? ` ${kind}` : ""}`} role={kind === "bad" ? "alert" : "status"}>
      {children}
    </div>
  );
}

export const Badge = ({ value, label }: { value: string | null; label?: string }) =>
  value ? <span class={`badge ${value}`}>{label ?? value.replace("_", " ")}</span> : null;

/** A date as a person reads it (UTC, to the minute); "never" for null. */
export const when = (iso: string | null | undefined): Child =>
  iso ? <time datetime={iso}>{`${iso.slice(0, 16).replace("T", " ")} UTC`}</time> : "never";

/**
 * Post/redirect/get: a form that changed something answers with a redirect to the page showing the changed
 * state, and `?done=<what>` names the confirmation that page shows once (a reload shows the state only).
 */
export const afterChange = (path: string, done: string, anchor = "") =>
  `${path}${path.includes("?") ? "&" : "?"}done=${encodeURIComponent(done)}${anchor ? `#${anchor}` : ""}`;

/** The confirmation named by `?done=`, when the page knows it. */
export function Done({ done, messages }: { done: string | undefined; messages: Record<string, string> }) {
  const text = done ? messages[done] : undefined;
  return text ? (
    <div id="done">
      <Notice kind="good">{text}</Notice>
    </div>
  ) : null;
}

/** The header row of a `table.list`. */
export const ListHead = ({ columns }: { columns: string[] }) => (
  <thead>
    <tr>
      {columns.map((name) => (
        <th scope="col">{name}</th>
      ))}
    </tr>
  </thead>
);
