// Renders a draft's Reddit markdown the way the forum shows it, as JSX elements built from an allowlist:
// text is always escaped by JSX, only the elements below are ever produced, links keep only http(s) targets,
// and images come only from the post's own image list. Nothing of the source reaches the page as raw HTML,
// so there is nothing left to sanitize afterwards.
import type { Child } from "hono/jsx";

export interface DraftImage {
  url: string;
  alt: string;
  caption: string | null;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const decode = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

/** Only absolute http(s) links are followed; anything else (javascript:, data:) stays text. */
function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** Reddit markdown inline syntax: escapes, code spans, links, bold, italic, strikethrough, superscript. */
export function renderInline(source: string): Child[] {
  const out: Child[] = [];
  let text = "";
  const flush = () => {
    if (text) out.push(decode(text));
    text = "";
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    const rest = source.slice(i);
    if (ch === "\\" && i + 1 < source.length && /[\\`*_~^[\]|()#+\-.!>]/.test(source[i + 1]!)) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const fence = /^`+/.exec(rest)![0];
      const end = source.indexOf(fence, i + fence.length);
      if (end > 0) {
        flush();
        out.push(<code>{source.slice(i + fence.length, end).trim()}</code>);
        i = end + fence.length;
        continue;
      }
    }
    if (ch === "[") {
      const link = /^\[((?:\\.|[^\]\\])*)\]\(([^()\s]+)\)/.exec(rest);
      if (link) {
        flush();
        const href = safeHref(link[2]!);
        const label = renderInline(link[1]!);
        out.push(
          href ? (
            <a href={href} rel="nofollow noopener noreferrer">
              {label}
            </a>
          ) : (
            <span>{label}</span>
          ),
        );
        i += link[0].length;
        continue;
      }
    }
    const marker = /^(\*\*|__|~~|\*|_)/.exec(rest)?.[0];
    if (marker) {
      const end = source.indexOf(marker, i + marker.length);
      if (end > i + marker.length && !/\s/.test(source[i + marker.length]!) && !/\s/.test(source[end - 1]!)) {
        flush();
        const inner = renderInline(source.slice(i + marker.length, end));
        out.push(
          marker === "~~" ? <del>{inner}</del> : marker.length === 2 ? <strong>{inner}</strong> : <em>{inner}</em>,
        );
        i = end + marker.length;
        continue;
      }
    }
    if (ch === "^") {
      const sup = /^\^(\([^)]*\)|\S+)/.exec(rest);
      if (sup) {
        flush();
        out.push(<sup>{renderInline(sup[1]!.replace(/^\((.*)\)$/, "$1"))}</sup>);
        i += sup[0].length;
        continue;
      }
    }
    text += ch;
    i++;
  }
  flush();
  return out;
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/** A paragraph that is only a link to one of the post's images is that image, shown inline. */
function imageOf(paragraph: string, images: DraftImage[]): DraftImage | undefined {
  const link = /^\[(?:\\.|[^\]\\])*\]\(([^()\s]+)\)$/.exec(paragraph.trim());
  if (!link) return undefined;
  return images.find((image) => image.url === link[1] || encodeURI(image.url) === link[1]);
}

/** Block structure: headings, rules, quotes, indented code, lists, pipe tables, paragraphs. */
export function renderMarkdown(markdown: string, images: DraftImage[] = []): Child[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const out: Child[] = [];
  let i = 0;
  const blank = (line: string | undefined) => line === undefined || line.trim() === "";
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const content = renderInline(heading[2]!);
      out.push(
        level === 1 ? (
          <h1>{content}</h1>
        ) : level === 2 ? (
          <h2>{content}</h2>
        ) : level === 3 ? (
          <h3>{content}</h3>
        ) : level === 4 ? (
          <h4>{content}</h4>
        ) : level === 5 ? (
          <h5>{content}</h5>
        ) : (
          <h6>{content}</h6>
        ),
      );
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push(<hr />);
      i++;
      continue;
    }
    if (/^ {4}|^\t/.test(line)) {
      const code: string[] = [];
      while (
        i < lines.length &&
        (/^ {4}|^\t/.test(lines[i]!) || (blank(lines[i]) && /^ {4}|^\t/.test(lines[i + 1] ?? "")))
      ) {
        code.push(lines[i]!.replace(/^ {4}|^\t/, ""));
        i++;
      }
      out.push(
        <pre>
          <code>{code.join("\n")}</code>
        </pre>,
      );
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) quoted.push(lines[i++]!.replace(/^\s*>\s?/, ""));
      out.push(<blockquote>{renderMarkdown(quoted.join("\n"), images)}</blockquote>);
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (i < lines.length && !blank(lines[i])) {
        const item = LIST_ITEM.exec(lines[i]!);
        if (item && item[1]!.length < 2) items.push(item[3]!);
        else if (items.length > 0) items[items.length - 1] += `\n${lines[i]!.trim()}`;
        i++;
      }
      const children = items.map((item) => <li>{renderInline(item)}</li>);
      out.push(ordered ? <ol>{children}</ol> : <ul>{children}</ul>);
      continue;
    }
    if (line.includes("|") && TABLE_SEPARATOR.test(lines[i + 1] ?? "")) {
      const head = cells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && !blank(lines[i]) && lines[i]!.includes("|")) rows.push(cells(lines[i++]!));
      out.push(
        <table>
          <thead>
            <tr>
              {head.map((cell) => (
                <th>{renderInline(cell)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr>
                {row.map((cell) => (
                  <td>{renderInline(cell)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>,
      );
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && !blank(lines[i]) && !/^(#{1,6}\s|\s*>)/.test(lines[i]!)) paragraph.push(lines[i++]!);
    const text = paragraph.join("\n");
    // The forum's markdown cannot embed an image, so a draft links it (with its caption on the next line);
    // the forum's rich-text post shows it inline, and so does the preview.
    const image = imageOf(paragraph[0]!.replace(/ {2,}$/, ""), images);
    if (image && safeHref(image.url)) {
      out.push(
        <figure>
          <img src={safeHref(image.url)} alt={image.alt} loading="lazy" />
          {image.caption ? <figcaption>{image.caption}</figcaption> : null}
        </figure>,
      );
      continue;
    }
    // Reddit keeps a single line break inside a paragraph as a space unless the line ends in two spaces.
    const parts = text.split(/ {2,}\n/);
    out.push(
      <p>
        {parts.map((part, n) =>
          n === 0 ? renderInline(part.replace(/\n/g, " ")) : [<br />, ...renderInline(part.replace(/\n/g, " "))],
        )}
      </p>,
    );
  }
  return out;
}
