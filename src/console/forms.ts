// From an HTML form to the API's input, checked by the API's own schemas, and from the errors services
// raise back to something a person can act on (next to the field, or a notice saying what and when).
import type { z } from "@hono/zod-openapi";
import { ApiError } from "../errors";
import { DomainError } from "../lib/domain-errors";
import type { ConsoleContext } from "./context";
import type { FieldErrors } from "./layout";

export type FormValues = Record<string, string>;

/** The submitted fields as strings (files and repeated names are not used by the console's forms). */
export async function formValues(c: ConsoleContext): Promise<FormValues> {
  const body = await c.req.parseBody();
  const out: FormValues = {};
  for (const [name, value] of Object.entries(body)) {
    if (name !== "_csrf" && typeof value === "string") out[name] = value;
  }
  return out;
}

export const checked = (form: FormValues, name: string) => form[name] === "true";

/** A number field: left out when empty, NaN-proof (a non-number reaches the schema as the text, and fails). */
export function numberField(value: string | undefined): number | string | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}

/** The field a problem belongs to: `body.keyword` → `keyword`. */
const fieldOf = (path: string) => path.replace(/^(body|query|path)\.?/, "").split(".")[0] || "form";

export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A service's refusal as field errors when it names fields, else undefined. */
export function fieldErrorsOf(err: unknown): FieldErrors | undefined {
  const problems = err instanceof DomainError ? err.problems : err instanceof ApiError ? err.details : undefined;
  if (!problems?.length) return undefined;
  const errors: FieldErrors = {};
  for (const p of problems) errors[fieldOf(p.path)] ??= p.message;
  return errors;
}

/**
 * What a person reads for a refusal that is not about one field: the message, and for the conflicts that
 * pass (a run in progress, the browser busy) what is happening and when to try again.
 */
export function refusalMessage(err: unknown): string | undefined {
  const known = err instanceof DomainError || (err instanceof ApiError && err.status < 500);
  if (!known) return undefined;
  const code = err instanceof DomainError ? err.kind : (err as ApiError).code;
  const retryAfter =
    err instanceof DomainError
      ? err.retryAfterSeconds
      : Number((err as ApiError).headers?.["retry-after"]) || undefined;
  const message = (err as Error).message;
  if (code === "run_in_progress")
    return `${message}. A real run of this config is working right now; wait until it has finished (usually a minute or two), then try again.`;
  if (code === "browser_busy")
    return `${message}. Another browser job of this workspace is running; try again in ${retryAfter ?? 30} seconds.`;
  return message;
}

/**
 * A service's message in the console's words: the publishing service names the API's approve and edit routes
 * where a person using the console has the review page's Approve button and edit form.
 */
export const inConsoleWords = (message: string) =>
  message
    .replace(/ \(POST \.\.\.\/items\/:item_id\/approve\)/g, ": approve it on its review page")
    .replace(/ \(PATCH \.\.\.\/items\/\d+\)/g, " on its review page");
