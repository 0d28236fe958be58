// Turning fetched bytes into text: the charset comes from the Content-Type header, else a byte order mark,
// else the page's own <meta charset> / <meta http-equiv> or XML declaration, else UTF-8.

const LABEL = /charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i;

export function charsetFromContentType(contentType: string | null | undefined): string | null {
  return contentType?.match(LABEL)?.[1]?.toLowerCase() ?? null;
}

function sniffBom(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/** The charset a document declares in its first 1024 bytes (HTML meta or XML declaration). */
function sniffDeclared(bytes: Uint8Array): string | null {
  const head = decoderFor("latin1")!.decode(bytes.subarray(0, 1024));
  const meta = head.match(/<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i);
  if (meta?.[1]) return meta[1].toLowerCase();
  const xml = head.match(/^\s*<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_.:-]+)["']/i);
  return xml?.[1]?.toLowerCase() ?? null;
}

/**
 * One decoder per label, made once: decoding a whole document in one call keeps no state in the decoder,
 * and making one cost about a tenth of the decode itself in a workerd profile. Unknown labels are kept as null.
 */
const decoders = new Map<string, TextDecoder | null>();

function decoderFor(label: string | null): TextDecoder | null {
  if (!label) return null;
  let decoder = decoders.get(label);
  if (decoder === undefined) {
    try {
      decoder = new TextDecoder(label);
    } catch {
      decoder = null;
    }
    // Page-supplied labels: a page can name any string, so only the first few dozen are kept.
    if (decoders.size < 64) decoders.set(label, decoder);
  }
  return decoder;
}

function isUtf8(bytes: Uint8Array): boolean {
  if (!bytes.some((b) => b >= 0x80)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Decodes a document; `charset` reports which encoding was used. */
export function decodeDocument(
  bytes: Uint8Array,
  contentType: string | null,
): { text: string; charset: string; warnings: string[] } {
  const warnings: string[] = [];
  const bom = sniffBom(bytes);
  const header = charsetFromContentType(contentType);
  const sniffed = bom || header ? null : sniffDeclared(bytes);
  const declared = bom ?? header ?? sniffed;
  let decoder = decoderFor(declared);
  // A page whose <meta> names a legacy charset but whose bytes are valid UTF-8 (with non-ASCII text) was
  // converted without updating the tag, which happens a lot; UTF-8 is then the only reading that works.
  if (sniffed && decoder && decoder.encoding !== "utf-8" && isUtf8(bytes)) decoder = decoderFor("utf-8");
  if (declared && !decoder) warnings.push(`unknown charset "${declared}", decoded as UTF-8`);
  // A page declared UTF-16 in a meta tag cannot really be (the meta would not be readable); browsers use UTF-8.
  if (!bom && !header && declared?.startsWith("utf-16")) decoder = null;
  decoder ??= decoderFor("utf-8")!;
  return { text: decoder.decode(bytes), charset: decoder.encoding, warnings };
}
