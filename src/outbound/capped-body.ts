// Bodies read into memory under a size cap that holds while they stream in, and gzip decompressed under
// one too (gzip bombs).
import { messageOf } from "../lib/log";
import { FetchError } from "./fetch-error";

export type ResourceKind = "html" | "feed" | "sitemap" | "image" | "robots";

const MB = 1024 * 1024;
export const SIZE_LIMITS: Record<ResourceKind, number> = {
  html: 5 * MB,
  feed: 5 * MB,
  sitemap: 20 * MB,
  image: 20 * MB,
  robots: 512 * 1024,
};

/** Reads a stream into memory, failing as soon as it passes `limit` bytes (or keeping those, with `truncate`). */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  what: string,
  truncate = false,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.byteLength > limit) {
        await reader.cancel().catch(() => {});
        if (!truncate) throw new FetchError("too_large", `${what} is larger than ${limit} bytes`);
        chunks.push(value.subarray(0, limit - total));
        total = limit;
        break;
      }
      total += value.byteLength;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Gunzips in the runtime's DecompressionStream; the decompressed size is capped too (gzip bombs). */
export async function gunzipCapped(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  try {
    return await readCapped(stream, limit, "decompressed body");
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw new FetchError("parse", `not valid gzip data: ${messageOf(err)}`);
  }
}
