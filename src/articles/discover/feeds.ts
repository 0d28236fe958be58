// Feeds: RSS 2.0 (and 0.9x), RSS 1.0 (RDF), Atom 1.0 (and 0.3), JSON Feed 1.x. Only what discovery needs is
// read: the feed's title and, per item, its link, title and date. Entity expansion of the XML parser is off
// (no entity bombs); character references are decoded on the extracted strings.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { messageOf } from "../../lib/log";
import { FetchError } from "../../outbound/fetch-error";
import { tryCanonicalize } from "../canonical-url";
import { decodeEntities } from "../extract/entities";
import { toIsoDate } from "../extract/metadata";
import type { DiscoveredPost } from "../types";

export type FeedFormat = "rss" | "rdf" | "atom" | "json";

export interface ParsedFeed {
  format: FeedFormat;
  title: string | null;
  posts: DiscoveredPost[];
  warnings: string[];
}

type XmlNode = Record<string, unknown>;

const ARRAYS = new Set(["item", "entry", "link", "url", "sitemap", "category"]);

export const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  trimValues: true,
  isArray: (name) => ARRAYS.has(name),
});

/** Bare `&` (not starting a reference) is the most common error of real feeds; it is read as a literal `&`. */
export function escapeBareAmpersands(xml: string): string {
  return xml.replace(/&(?![A-Za-z][A-Za-z0-9]*;|#[0-9]+;|#x[0-9A-Fa-f]+;)/g, "&amp;");
}

/**
 * Parses XML leniently and validates it once. `problem` is the validator's message when the text is not
 * well-formed (the lenient parse may still have read something); when nothing comes out, it says why.
 */
export function parseXml(text: string, what: string): { doc: XmlNode; problem: string | null } {
  const result = XMLValidator.validate(text);
  const problem = result === true ? null : validatorMessage(result.err, text.split("\n").length);
  try {
    return { doc: xmlParser.parse(text) as XmlNode, problem };
  } catch (err) {
    throw new FetchError(
      "parse",
      `malformed ${what}: ${problem ?? (err instanceof Error ? err.message : "not well-formed XML")}`,
    );
  }
}

/**
 * The XML validator's finding in words a person can act on. Its message for a document that ends with
 * several elements still open lists their names as JSON (`Invalid '["rss","channel"]' found.`); that one
 * is said as what it is: the document ends before those elements are closed.
 */
export function validatorMessage(
  err: { code?: string; msg: string; line: number; col?: number },
  lastLine?: number,
): string {
  const open = /^Invalid '(\[.*\])' found\.$/.exec(err.msg.replace(/\s+/g, " "));
  if (open) {
    let names: string[] = [];
    try {
      names = JSON.parse(open[1]!) as string[];
    } catch {
      names = [];
    }
    if (names.length) {
      const nesting = [...names]
        .reverse()
        .map((name) => `<${name}>`)
        .join(" in ");
      const end = lastLine === undefined ? "" : ` at line ${lastLine}`;
      return `the document ends${end} while ${nesting} is still open: it was cut off, or a closing tag is missing`;
    }
  }
  const unclosed = /^Unclosed tag '([^']+)'\.$/.exec(err.msg);
  const where = `line ${err.line}${err.col !== undefined ? `, column ${err.col}` : ""}`;
  if (unclosed) return `<${unclosed[1]}> opened at ${where} is never closed`;
  return `${err.msg} (${where})`;
}

/** Text content of a parsed XML value (string, {#text}, or CDATA merged), entities decoded. */
export function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "number") {
    const text = decodeEntities(String(value)).replace(/\s+/g, " ").trim();
    return text || null;
  }
  if (Array.isArray(value)) return textOf(value[0]);
  if (typeof value === "object") {
    const node = value as XmlNode;
    if ("#text" in node) return textOf(node["#text"]);
  }
  return null;
}

function first<T>(value: T | T[] | undefined): T | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Feed titles may carry markup (Atom type="html"): keep only the text. */
function plainTitle(value: unknown): string | null {
  const text = textOf(value);
  return text ? decodeEntities(text.replace(/<[^>]*>/g, "")).trim() || null : null;
}

/** Resolves `link` against `base`, once: an unusable link drops its item, never the whole feed. */
function post(
  link: string | null | undefined,
  title: string | null,
  date: string | null | undefined,
  base: string,
): DiscoveredPost | null {
  if (!link) return null;
  const url = tryCanonicalize(decodeEntities(link), base);
  return url ? { url, title, publishedAt: toIsoDate(date) } : null;
}

/** The href of an entry's post link, as written: `post()` resolves it (and drops one that is unusable). */
function atomLink(links: unknown): string | null {
  const all = asArray(links as XmlNode | XmlNode[] | string);
  let fallback: string | null = null;
  for (const link of all) {
    if (typeof link === "string") {
      fallback ??= link;
      continue;
    }
    const href = (link["@_href"] as string | undefined) ?? textOf(link);
    if (!href) continue;
    const rel = (link["@_rel"] as string | undefined) ?? "alternate";
    const type = (link["@_type"] as string | undefined) ?? "text/html";
    if (rel === "alternate" && /html/i.test(type)) return href;
    if (rel === "alternate") fallback ??= href;
  }
  return fallback;
}

function xmlBase(node: XmlNode | undefined, base: string): string {
  const declared = node?.["@_base"];
  if (typeof declared !== "string") return base;
  try {
    return new URL(declared, base).href;
  } catch {
    return base;
  }
}

function fromRss(items: XmlNode[], base: string): DiscoveredPost[] {
  return items
    .map((item) => {
      // <link> is the post; a permalink <guid> stands in when there is no link.
      const guid = first(item.guid as XmlNode | string | undefined);
      const guidIsLink = guid && typeof guid === "object" ? (guid as XmlNode)["@_isPermaLink"] !== "false" : true;
      const link = atomLink(item.link) ?? (guidIsLink ? textOf(guid) : null);
      return post(
        link,
        plainTitle(item.title),
        textOf(item.pubDate) ??
          textOf(item.date) ??
          textOf(item.published) ??
          textOf(item.updated) ??
          textOf(item.issued),
        base,
      );
    })
    .filter((p): p is DiscoveredPost => p !== null);
}

/**
 * Parses a feed document (XML or JSON); throws FetchError("parse") when it is not a feed or not parseable.
 * A feed that is not well-formed but still yields items is read, with a warning; one that yields none is
 * an error carrying the XML validator's message.
 */
export function parseFeed(text: string, url: string): ParsedFeed {
  const { problem, ...feed } = parseFeedDocument(text, url);
  if (!feed.posts.length && problem) throw new FetchError("parse", `malformed feed: ${problem}`);
  return feed;
}

/** The feed, and the XML validator's message when it is not well-formed (found once, by `parseXml`). */
function parseFeedDocument(text: string, url: string): ParsedFeed & { problem: string | null } {
  const stripped = text.replace(/^\uFEFF/, "").trimStart();
  if (stripped.startsWith("{")) return { ...parseJsonFeed(stripped, url), problem: null };
  const { doc, problem } = parseXml(escapeBareAmpersands(stripped), "feed");
  const warnings: string[] = [];
  if (problem) warnings.push(`feed is not well-formed XML (${problem}); read what could be read`);
  // An element with no children parses to a string: such a feed is valid and simply has no items.
  const element = (value: unknown): XmlNode | null => {
    const node = first(value as XmlNode | XmlNode[] | undefined);
    return node === undefined ? null : typeof node === "object" && node ? node : {};
  };
  const rss = element(doc.rss);
  if (rss) {
    const channel = element(rss.channel) ?? {};
    const base = xmlBase(channel, url);
    // RSS 0.9x/2.0 put items in the channel; some put them beside it.
    const items = [...asArray(channel.item as XmlNode[] | undefined), ...asArray(rss.item as XmlNode[] | undefined)];
    return { format: "rss", title: plainTitle(channel.title), posts: fromRss(items, base), warnings, problem };
  }
  const rdf = element(doc.RDF);
  if (rdf) {
    const channel = element(rdf.channel) ?? {};
    const items = asArray(rdf.item as XmlNode[] | undefined).map((item) => ({
      ...item,
      link: item.link ?? item["@_about"],
    }));
    return { format: "rdf", title: plainTitle(channel.title), posts: fromRss(items, url), warnings, problem };
  }
  const feed = element(doc.feed);
  if (feed) {
    const base = xmlBase(feed, url);
    const posts = asArray(feed.entry as XmlNode[] | undefined)
      .map((entry) => {
        const entryBase = xmlBase(entry, base);
        const link = atomLink(entry.link) ?? (textOf(entry.id)?.match(/^https?:\/\//) ? textOf(entry.id) : null);
        return post(
          link,
          plainTitle(entry.title),
          textOf(entry.published) ??
            textOf(entry.issued) ??
            textOf(entry.updated) ??
            textOf(entry.modified) ??
            textOf(entry.created),
          entryBase,
        );
      })
      .filter((p): p is DiscoveredPost => p !== null);
    return { format: "atom", title: plainTitle(feed.title), posts, warnings, problem };
  }
  if (problem) throw new FetchError("parse", `malformed feed: ${problem}`);
  const root = Object.keys(doc).find((k) => !k.startsWith("?"));
  throw new FetchError("parse", `not a feed: the document's root element is ${root ? `<${root}>` : "missing"}`);
}

interface JsonFeedItem {
  url?: unknown;
  external_url?: unknown;
  id?: unknown;
  title?: unknown;
  date_published?: unknown;
  date_modified?: unknown;
}

function parseJsonFeed(text: string, url: string): ParsedFeed {
  let doc: { version?: unknown; title?: unknown; items?: unknown; home_page_url?: unknown };
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new FetchError("parse", `malformed JSON feed: ${messageOf(err)}`);
  }
  if (!doc || typeof doc !== "object" || typeof doc.version !== "string" || !doc.version.includes("jsonfeed.org")) {
    throw new FetchError("parse", "not a JSON Feed: no jsonfeed.org version");
  }
  const items = Array.isArray(doc.items) ? (doc.items as JsonFeedItem[]) : [];
  const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
  const posts = items
    .map((item) => {
      const link =
        str(item?.url) ?? str(item?.external_url) ?? (str(item?.id)?.match(/^https?:\/\//) ? str(item?.id) : null);
      return post(link, str(item?.title), str(item?.date_published) ?? str(item?.date_modified), url);
    })
    .filter((p): p is DiscoveredPost => p !== null);
  return { format: "json", title: str(doc.title), posts, warnings: [] };
}
