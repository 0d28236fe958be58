// The web console driven through the Worker's own fetch handler, as a browser without JavaScript would: the
// sign-in form's nonce cookie and CSRF token, the session cookie, and form posts that do not follow redirects.
import { exports } from "cloudflare:workers";

const worker = (exports as unknown as { default: Fetcher }).default;
const ORIGIN = "http://threadwatch.test";

export interface FormSession {
  cookie: string;
  csrf: string;
}

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;

/** GET a console page with the session's cookie (redirects not followed). */
export const getPage = (path: string, cookie?: string) =>
  worker.fetch(new Request(`${ORIGIN}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} }));

/** Posts a form (its CSRF token added), without following the answer's redirect. */
export function postForm(path: string, form: FormSession, fields: Record<string, string>, address?: string) {
  return worker.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie: form.cookie,
        "content-type": "application/x-www-form-urlencoded",
        ...(address ? { "cf-connecting-ip": address } : {}),
      },
      body: new URLSearchParams({ _csrf: form.csrf, ...fields }).toString(),
    }),
  );
}

/** The sign-in form's nonce cookie and CSRF token. */
export async function signInForm(): Promise<FormSession> {
  const res = await getPage("/app/sign-in");
  const nonce = /tw_console_signin=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1]!;
  return { cookie: `tw_console_signin=${nonce}`, csrf: csrfOf(await res.text()) };
}

/** A signed-in session: its cookie and the CSRF token of its forms (read from `page`). */
export async function signedIn(key: string, page = "/app/keywords"): Promise<FormSession> {
  const res = await postForm("/app/sign-in", await signInForm(), { api_key: key, next: page });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  const cookie = `tw_console=${/tw_console=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1]!}`;
  return { cookie, csrf: csrfOf(await (await getPage(page, cookie)).text()) };
}
