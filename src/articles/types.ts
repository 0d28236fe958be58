// The shapes the sync engine hands to its callers (the sync runs, the extract command, the benchmark).

export type SourceKind = "feed" | "sitemap" | "index" | "landing";

import type { FetchErrorCode } from "../outbound/fetch-error";

export type { FetchPolicy } from "../outbound/fetch-policy";

/** The engine's failures: a fetch's, or an address that answered but is neither a blog page, a feed nor a sitemap. */
export type ArticleErrorCode = FetchErrorCode | "not_a_blog";

/** A post found by discovery; `url` is canonical. */
export interface DiscoveredPost {
  url: string;
  title: string | null;
  publishedAt: string | null;
}

/** What discovery found, newest first, and the source it used. */
export interface Discovery {
  sourceKind: SourceKind;
  sourceUrl: string;
  posts: DiscoveredPost[];
  warnings: string[];
}

/** Inline content of a block: plain text with marks, links, line breaks. */
export type Inline =
  | { type: "text"; text: string; bold?: boolean; italic?: boolean; code?: boolean; strike?: boolean; sup?: boolean }
  | { type: "link"; href: string; children: Inline[] }
  | { type: "break" };

/** The article body as a tree of blocks; every URL in it is absolute and safe (http, https or mailto). */
export type Block =
  | { type: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: "paragraph"; children: Inline[] }
  | { type: "list"; ordered: boolean; start?: number; items: Block[][] }
  | { type: "quote"; children: Block[] }
  | { type: "code"; text: string; language: string | null }
  | { type: "table"; rows: TableRow[] }
  | { type: "image"; url: string; alt: string; caption: string | null; href?: string | null }
  | { type: "rule" };

export interface TableRow {
  header: boolean;
  cells: Inline[][];
}

export interface ArticleImage {
  url: string;
  alt: string;
  caption: string | null;
}

export interface Article {
  url: string;
  canonicalUrl: string;
  title: string;
  byline: string | null;
  publishedAt: string | null;
  /** The site's name (JSON-LD publisher, og:site_name, application-name), when the page gives one. */
  siteName?: string | null;
  leadImage: string | null;
  blocks: Block[];
  images: ArticleImage[];
  /** Plain text of the body: paragraphs separated by blank lines, bulleted list items marked "- " (see blocksToText). */
  text: string;
  warnings: string[];
}
