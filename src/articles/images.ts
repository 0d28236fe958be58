// Fetching an article's images for upload to the forum: safe fetching with the 20 MB image cap, and only
// real images (by Content-Type, confirmed by the file's first bytes) come back.
import { FetchError } from "../outbound/fetch-error";
import { safeFetch } from "../outbound/safe-fetch";
import type { FetchPolicy } from "./types";

export interface FetchedImage {
  url: string;
  contentType: string;
  bytes: Uint8Array;
}

const SIGNATURES: [string, number[]][] = [
  ["image/png", [0x89, 0x50, 0x4e, 0x47]],
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/gif", [0x47, 0x49, 0x46, 0x38]],
  ["image/webp", [0x52, 0x49, 0x46, 0x46]],
];

/** The image type its first bytes show (PNG, JPEG, GIF, WebP), or null. */
export function sniffImageType(bytes: Uint8Array): string | null {
  for (const [type, signature] of SIGNATURES) {
    if (signature.every((byte, i) => bytes[i] === byte)) {
      if (type === "image/webp" && String.fromCharCode(...bytes.subarray(8, 12)) !== "WEBP") continue;
      return type;
    }
  }
  return null;
}

/** Fetches one image under the fetch policy (20 MB cap: docs/extraction.md, "Safe fetching"); refuses anything that is not an image. */
export async function fetchImage(url: string, options: { policy: FetchPolicy }): Promise<FetchedImage> {
  const res = await safeFetch(url, { policy: options.policy, kind: "image" });
  const sniffed = sniffImageType(res.bytes);
  if (!sniffed) {
    const declared = res.contentType.split(";")[0]!.trim() || "unknown type";
    throw new FetchError(
      "parse",
      `${res.url} is not a PNG, JPEG, GIF or WebP image (${declared})`,
      res.status,
      res.url,
    );
  }
  return { url: res.url, contentType: sniffed, bytes: res.bytes };
}
