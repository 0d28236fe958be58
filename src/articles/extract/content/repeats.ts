// A page that carries its article twice: a block repeating an earlier one word for word goes.

import { type ElementNode, innerText, textLength } from "../html-tree";
import { hasAncestorNode } from "../predicates";
import { cleanMatching } from "./clean-matching";

/**
 * A block of 100+ characters and two or more parts with text that repeats, word for word, an earlier block
 * that is not its ancestor: pages that carry the article twice (a second copy for print or another layout)
 * had every word counted double. Blocks are compared by text length first, so only blocks of equal length
 * build their text.
 */
export function removeRepeats(content: ElementNode): void {
  // Blocks by length, then (once a second block of that length comes) by text: a listing of thousands of
  // entries of one length made a search of every earlier one per entry, quadratic.
  const byLength = new Map<number, { blocks: ElementNode[]; byText: Map<string, ElementNode[]> | null }>();
  cleanMatching(content, (el) => {
    const length = textLength(el);
    if (el === content || length < REPEAT_MIN_LENGTH) return false;
    let parts = 0;
    for (const child of el.children) if (typeof child !== "string" && textLength(child) > 0) parts++;
    if (parts < 2) return false;
    const bucket = byLength.get(length);
    if (!bucket) {
      byLength.set(length, { blocks: [el], byText: null });
      return false;
    }
    if (!bucket.byText) {
      bucket.byText = new Map();
      for (const first of bucket.blocks) pushTo(bucket.byText, innerText(first), first);
    }
    const text = innerText(el);
    if (bucket.byText.get(text)?.some((first) => !hasAncestorNode(el, first))) return true;
    pushTo(bucket.byText, text, el);
    return false;
  });
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
const REPEAT_MIN_LENGTH = 100;
