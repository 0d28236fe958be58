// HTMLRewriter hands text and attribute values over as written in the source, character references
// included; this turns them into characters. Named references cover what pages actually use (Latin-1,
// typography, arrows, math basics); unknown names are left as written, as browsers do.

const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", ensp: "\u2002", emsp: "\u2003",
  thinsp: "\u2009", zwnj: "\u200c", zwj: "\u200d", lrm: "\u200e", rlm: "\u200f", shy: "\u00ad",
  ndash: "\u2013", mdash: "\u2014", lsquo: "\u2018", rsquo: "\u2019", sbquo: "\u201a", ldquo: "\u201c",
  rdquo: "\u201d", bdquo: "\u201e", dagger: "\u2020", Dagger: "\u2021", bull: "\u2022", hellip: "\u2026",
  permil: "\u2030", prime: "\u2032", Prime: "\u2033", lsaquo: "\u2039", rsaquo: "\u203a", oline: "\u203e",
  euro: "\u20ac", trade: "\u2122", larr: "\u2190", uarr: "\u2191", rarr: "\u2192", darr: "\u2193",
  harr: "\u2194", lArr: "\u21d0", rArr: "\u21d2", hArr: "\u21d4", minus: "\u2212", times: "\u00d7",
  divide: "\u00f7", le: "\u2264", ge: "\u2265", ne: "\u2260", asymp: "\u2248", infin: "\u221e",
  sum: "\u2211", prod: "\u220f", radic: "\u221a", part: "\u2202", int: "\u222b", isin: "\u2208",
  forall: "\u2200", exist: "\u2203", empty: "\u2205", nabla: "\u2207", and: "\u2227", or: "\u2228",
  cap: "\u2229", cup: "\u222a", sub: "\u2282", sup: "\u2283", equiv: "\u2261", sdot: "\u22c5",
  loz: "\u25ca", spades: "\u2660", clubs: "\u2663", hearts: "\u2665", diams: "\u2666", check: "\u2713",
  iexcl: "\u00a1", cent: "\u00a2", pound: "\u00a3", curren: "\u00a4", yen: "\u00a5", brvbar: "\u00a6",
  sect: "\u00a7", uml: "\u00a8", copy: "\u00a9", ordf: "\u00aa", laquo: "\u00ab", not: "\u00ac",
  reg: "\u00ae", macr: "\u00af", deg: "\u00b0", plusmn: "\u00b1", sup2: "\u00b2", sup3: "\u00b3",
  acute: "\u00b4", micro: "\u00b5", para: "\u00b6", middot: "\u00b7", cedil: "\u00b8", sup1: "\u00b9",
  ordm: "\u00ba", raquo: "\u00bb", frac14: "\u00bc", frac12: "\u00bd", frac34: "\u00be", iquest: "\u00bf",
  Agrave: "\u00c0", Aacute: "\u00c1", Acirc: "\u00c2", Atilde: "\u00c3", Auml: "\u00c4", Aring: "\u00c5",
  AElig: "\u00c6", Ccedil: "\u00c7", Egrave: "\u00c8", Eacute: "\u00c9", Ecirc: "\u00ca", Euml: "\u00cb",
  Igrave: "\u00cc", Iacute: "\u00cd", Icirc: "\u00ce", Iuml: "\u00cf", ETH: "\u00d0", Ntilde: "\u00d1",
  Ograve: "\u00d2", Oacute: "\u00d3", Ocirc: "\u00d4", Otilde: "\u00d5", Ouml: "\u00d6", Oslash: "\u00d8",
  Ugrave: "\u00d9", Uacute: "\u00da", Ucirc: "\u00db", Uuml: "\u00dc", Yacute: "\u00dd", THORN: "\u00de",
  szlig: "\u00df", agrave: "\u00e0", aacute: "\u00e1", acirc: "\u00e2", atilde: "\u00e3", auml: "\u00e4",
  aring: "\u00e5", aelig: "\u00e6", ccedil: "\u00e7", egrave: "\u00e8", eacute: "\u00e9", ecirc: "\u00ea",
  euml: "\u00eb", igrave: "\u00ec", iacute: "\u00ed", icirc: "\u00ee", iuml: "\u00ef", eth: "\u00f0",
  ntilde: "\u00f1", ograve: "\u00f2", oacute: "\u00f3", ocirc: "\u00f4", otilde: "\u00f5", ouml: "\u00f6",
  oslash: "\u00f8", ugrave: "\u00f9", uacute: "\u00fa", ucirc: "\u00fb", uuml: "\u00fc", yacute: "\u00fd",
  thorn: "\u00fe", yuml: "\u00ff", OElig: "\u0152", oelig: "\u0153", Scaron: "\u0160", scaron: "\u0161",
  Yuml: "\u0178", fnof: "\u0192", circ: "\u02c6", tilde: "\u02dc", Alpha: "\u0391", Beta: "\u0392",
  Gamma: "\u0393", Delta: "\u0394", Epsilon: "\u0395", Zeta: "\u0396", Eta: "\u0397", Theta: "\u0398",
  Iota: "\u0399", Kappa: "\u039a", Lambda: "\u039b", Mu: "\u039c", Nu: "\u039d", Xi: "\u039e",
  Omicron: "\u039f", Pi: "\u03a0", Rho: "\u03a1", Sigma: "\u03a3", Tau: "\u03a4", Upsilon: "\u03a5",
  Phi: "\u03a6", Chi: "\u03a7", Psi: "\u03a8", Omega: "\u03a9", alpha: "\u03b1", beta: "\u03b2",
  gamma: "\u03b3", delta: "\u03b4", epsilon: "\u03b5", zeta: "\u03b6", eta: "\u03b7", theta: "\u03b8",
  iota: "\u03b9", kappa: "\u03ba", lambda: "\u03bb", mu: "\u03bc", nu: "\u03bd", xi: "\u03be",
  omicron: "\u03bf", pi: "\u03c0", rho: "\u03c1", sigmaf: "\u03c2", sigma: "\u03c3", tau: "\u03c4",
  upsilon: "\u03c5", phi: "\u03c6", chi: "\u03c7", psi: "\u03c8", omega: "\u03c9", star: "\u2606",
  starf: "\u2605", colon: ":", comma: ",", period: ".", excl: "!", quest: "?", num: "#", dollar: "$",
  percnt: "%", lpar: "(", rpar: ")", ast: "*", plus: "+", sol: "/", semi: ";", equals: "=", commat: "@",
  lsqb: "[", rsqb: "]", bsol: "\\", lowbar: "_", grave: "`", lcub: "{", rcub: "}", verbar: "|", vert: "|",
  Hat: "^", NewLine: "\n", Tab: "\t",
};

// Windows-1252 meanings of C1 code points in numeric references, as the HTML standard maps them.
const C1: Record<number, number> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
  0x88: 0x02c6, 0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018,
  0x92: 0x2019, 0x93: 0x201c, 0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc,
  0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a, 0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

const REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,6});?|#(\d{1,7});?|([A-Za-z][A-Za-z0-9]{1,31});?)/g;

function fromCodePoint(code: number): string {
  const mapped = C1[code] ?? code;
  if (mapped === 0 || mapped > 0x10ffff || (mapped >= 0xd800 && mapped <= 0xdfff)) return "\ufffd";
  return String.fromCodePoint(mapped);
}

/**
 * `text` with its character references as characters. In an attribute value (`inAttribute`) a named
 * reference without ";" right before "=" stays as written, as HTML reads attributes: `?a=1&not=2` is a
 * query parameter, not "¬".
 */
export function decodeEntities(text: string, inAttribute = false): string {
  if (!text.includes("&")) return text;
  return text.replace(REFERENCE, (match, hex: string | undefined, dec: string | undefined, name: string | undefined, offset: number) => {
    if (hex) return fromCodePoint(parseInt(hex, 16));
    if (dec) return fromCodePoint(parseInt(dec, 10));
    if (inAttribute && !match.endsWith(";") && text[offset + match.length] === "=") return match;
    const char = name ? NAMED[name] : undefined;
    return char ?? match;
  });
}
