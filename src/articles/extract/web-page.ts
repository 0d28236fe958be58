// What counts as a web page, for source discovery and post fetching alike: an HTML content type, or (servers
// mislabel pages as text/plain, XML or nothing) HTML markup near the start of the document.

export function isWebPage(contentType: string, text: string): boolean {
  if (/html/i.test(contentType)) return true;
  const head = text.slice(0, 4096).replace(/^\uFEFF/, "");
  return (
    /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body)\b/i.test(head) ||
    /<(head|body|title)\b[^>]*>/i.test(head)
  );
}
