// A request body must be UTF-8 (RFC 8259 section 8.1). The JSON parser the validators use decodes
// leniently, turning invalid bytes into U+FFFD, so `ff fe c3 28` would be stored as "���(". The body is
// decoded strictly here first; the bytes stay cached on the request, so the validator reads them again
// without a second read of the stream.
import { createMiddleware } from "hono/factory";
import { ApiError } from "../errors";
import type { AppEnv } from "./hono-env";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The body's bytes, refused as 400 `invalid_json` when they are not valid UTF-8. */
export async function utf8BodyBytes(bytes: ArrayBuffer): Promise<ArrayBuffer> {
  try {
    strict.decode(bytes);
  } catch {
    throw new ApiError("invalid_json", "request body is not valid UTF-8; send JSON encoded as UTF-8");
  }
  return bytes;
}

/** Every route that takes a body: invalid UTF-8 is 400 `invalid_json` (docs/api.md, "Errors") before any parsing. */
export const requireUtf8Body = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") await utf8BodyBytes(await c.req.arrayBuffer());
  await next();
});
