// Text that went through UTF-8 → Windows-1252 → UTF-8 ("mojibake": "it’s" shown as "itâ€™s", a no-break
// space as "Â "): a page's CMS or database read UTF-8 bytes as Windows-1252 and stored the characters it saw.
// The author's characters can be recovered exactly: each character of the damaged run stands for one byte,
// and those bytes are the UTF-8 of what was written. Accented letters beside symbols are also ordinary
// text ("automatisé » ", "CAFÉ…"), so a text is repaired only when it shows the damage unmistakably
// (`unmistakable`), and then only the runs that decode to one well-formed sequence of a plausible character.
/**
 * The byte each character stands for under Windows-1252 as browsers decode it (the WHATWG index: 0x80–0x9F
 * are the typographic marks "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ", the five bytes it leaves undefined are the C1
 * controls, 0xA0–0xFF are the Latin-1 characters of the same number). Built from the runtime's own decoder.
 */
const BYTE_OF = (() => {
  const map = new Map<number, number>();
  const bytes = Uint8Array.from({ length: 0x80 }, (_, i) => 0x80 + i);
  const chars = new TextDecoder("windows-1252").decode(bytes);
  for (let i = 0; i < chars.length; i++) map.set(chars.charCodeAt(i), 0x80 + i);
  // The C1 controls also stand for their own byte (a Latin-1 reading instead of Windows-1252).
  for (let b = 0x80; b < 0xa0; b++) map.set(b, b);
  return map;
})();

/** Characters that stand for a UTF-8 continuation byte (0x80–0xBF), as one class for the search. */
const CONTINUATION = (() => {
  let set = "";
  for (const [code, byte] of BYTE_OF) if (byte < 0xc0) set += `\\u${code.toString(16).padStart(4, "0")}`;
  return set;
})();

/** A lead byte's character (Â–ô: 0xC2–0xF4) followed by one to three continuation characters. */
const RUN = new RegExp(`[\\u00c2-\\u00f4][${CONTINUATION}]{1,3}`, "g");
/**
 * Whether a text holds a run at all. Asked before the replace: most text nodes hold none, and a `test`
 * without the global flag costs about half of a `replace` that finds nothing (the repair of every text
 * node of the readability and WCXB pages took 100 ms instead of 210 ms in Node 22).
 */
const ANY_RUN = new RegExp(RUN.source);

/**
 * A character that a repair may produce. Two-byte sequences stand for U+0080–U+07FF, where a false repair
 * is most likely (an accented capital before a symbol), so only the blocks where real text lives there are
 * taken: Latin-1's printable half and Latin Extended-A, Greek, Cyrillic, Hebrew and Arabic. Three- and
 * four-byte sequences (punctuation, CJK, emoji) need a lead such as "â" or "ð" and two or three symbols
 * after it, which no language writes.
 */
function plausible(cp: number): boolean {
  if (cp < 0x800) return (cp >= 0xa0 && cp < 0x180) || (cp >= 0x370 && cp < 0x530) || (cp >= 0x590 && cp < 0x700);
  return !(cp >= 0xd800 && cp < 0xe000) && cp <= 0x10ffff;
}

/**
 * The code point of the UTF-8 sequence at the start of `bytes` and its length, or null when they do not
 * start a well-formed one (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
 */
function decodeOne(bytes: number[]): [number, number] | null {
  const lead = bytes[0]!;
  const length = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
  if (bytes.length < length) return null;
  let cp = lead & (0x7f >> length);
  for (let i = 1; i < length; i++) cp = (cp << 6) | (bytes[i]! & 0x3f);
  const min = length === 2 ? 0x80 : length === 3 ? 0x800 : 0x10000;
  return cp >= min && plausible(cp) ? [cp, length] : null;
}

/**
 * A run no language writes: "Â" or "Ã" before a symbol (those two capitals are followed by letters in the
 * languages that use them), or a run holding one of the characters Windows-1252 puts at 0x80–0x9F (€, ™,
 * the curly quotes and dashes…) or a C1 control, as the UTF-8 of all typographic punctuation does ("’" is
 * "â€™"). A French "é » " (a no-break space and a guillemet after an accented letter) is neither.
 */
function unmistakable(run: string): boolean {
  const lead = run.charCodeAt(0);
  if (lead === 0xc2 || lead === 0xc3) return true;
  for (let i = 1; i < run.length; i++) {
    const c = run.charCodeAt(i);
    if (c < 0xa0 || c > 0xff) return true;
  }
  return false;
}

/** The repair of one run: its sequence's character and the symbols after it, or null when it is not one. */
function repairRun(run: string): string | null {
  const bytes = [run.charCodeAt(0)];
  for (let i = 1; i < run.length; i++) bytes.push(BYTE_OF.get(run.charCodeAt(i))!);
  const one = decodeOne(bytes);
  // The characters after the sequence (a run may take one more symbol than the sequence needs) stay.
  return one ? String.fromCodePoint(one[0]) + run.slice(one[1]) : null;
}

/**
 * `text` with its doubly encoded UTF-8 repaired (see the top of this file) when at least one of its runs is
 * unmistakable and repairs; the same string otherwise.
 */
export function repairMojibake(text: string): string {
  if (!ANY_RUN.test(text)) return text;
  // One pass: each run is decoded once; the repaired text is kept only when some run was unmistakable.
  let damaged = false;
  const repaired = text.replace(RUN, (run) => {
    const fixed = repairRun(run);
    if (fixed === null) return run;
    damaged ||= unmistakable(run);
    return fixed;
  });
  return damaged ? repaired : text;
}
