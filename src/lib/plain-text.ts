// Names and terms people type (keywords, competitor names and aliases) are single lines of visible text.
// Control characters, line breaks and the bidirectional overrides and isolates (which make stored text
// display in another order than it is matched: "Trojan Source") are refused with the character's code
// point, its Unicode name and its position, so the caller can find it.
import { z } from "zod";

const NAMED: Record<number, string> = {
  0: "NULL",
  9: "CHARACTER TABULATION",
  10: "LINE FEED",
  11: "LINE TABULATION",
  12: "FORM FEED",
  13: "CARRIAGE RETURN",
  27: "ESCAPE",
  127: "DELETE",
  133: "NEXT LINE",
  8232: "LINE SEPARATOR",
  8233: "PARAGRAPH SEPARATOR",
  8234: "LEFT-TO-RIGHT EMBEDDING",
  8235: "RIGHT-TO-LEFT EMBEDDING",
  8236: "POP DIRECTIONAL FORMATTING",
  8237: "LEFT-TO-RIGHT OVERRIDE",
  8238: "RIGHT-TO-LEFT OVERRIDE",
  8294: "LEFT-TO-RIGHT ISOLATE",
  8295: "RIGHT-TO-LEFT ISOLATE",
  8296: "FIRST STRONG ISOLATE",
  8297: "POP DIRECTIONAL ISOLATE",
};

/** The refused character's name, or undefined when `code` may appear in a name or term. */
function refusedName(code: number): string | undefined {
  if (NAMED[code]) return NAMED[code];
  if (code <= 0x1f) return "CONTROL CHARACTER"; // C0
  if (code >= 0x80 && code <= 0x9f) return "CONTROL CHARACTER"; // C1
  if (code >= 0xd800 && code <= 0xdfff) return "UNPAIRED SURROGATE"; // a JSON "\ud800" escape
  return undefined;
}

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * Why `text` is not a plain single-line name: `contains U+202E RIGHT-TO-LEFT OVERRIDE at position 4`
 * (position counts characters from 1, as written, before any trimming); null when it is fine.
 */
export function plainTextProblem(text: string): string | null {
  let position = 0;
  for (const char of text) {
    position++;
    const code = char.codePointAt(0) ?? 0;
    const name = refusedName(code);
    if (name) return `contains ${hex(code)} ${name} at position ${position}`;
  }
  return null;
}

/** A trimmed, single-line name of 1..max characters with no control, line-break or bidi-override character. */
export const plainName = (max: number) =>
  z
    .string()
    .superRefine((text, ctx) => {
      const problem = plainTextProblem(text);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .trim()
    .min(1)
    .max(max);
