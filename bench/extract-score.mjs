// Word 4-gram precision / recall / F1 between an extracted text and the expected one (multiset overlap).

function words(text) {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function grams(text, n = 4) {
  const w = words(text);
  const counts = new Map();
  if (w.length < n) {
    if (w.length) counts.set(w.join(" "), 1);
    return counts;
  }
  for (let i = 0; i + n <= w.length; i++) {
    const g = w.slice(i, i + n).join(" ");
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return counts;
}

export function score(got, expected) {
  const a = grams(got);
  const b = grams(expected);
  let overlap = 0,
    totalA = 0,
    totalB = 0;
  for (const c of a.values()) totalA += c;
  for (const c of b.values()) totalB += c;
  for (const [g, c] of a) overlap += Math.min(c, b.get(g) ?? 0);
  if (totalA === 0 && totalB === 0) return { precision: 1, recall: 1, f1: 1 };
  const precision = totalA ? overlap / totalA : 0;
  const recall = totalB ? overlap / totalB : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}
