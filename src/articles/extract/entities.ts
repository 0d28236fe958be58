// Character references as characters, through the `entities` package (every named reference of HTML, the
// numeric ones with the standard's replacements). Used where text reaches us undecoded: HTMLRewriter's text
// and attribute values, feed fields.
import { decodeHTML, decodeHTMLAttribute } from "entities";

/**
 * `text` with its character references as characters. In an attribute value (`inAttribute`) a named
 * reference without ";" before "=" or a letter or digit stays as written, as HTML reads attributes:
 * `?a=1&not=2` is a query parameter, not "¬".
 */
export function decodeEntities(text: string, inAttribute = false): string {
  if (!text.includes("&")) return text;
  return inAttribute ? decodeHTMLAttribute(text) : decodeHTML(text);
}
