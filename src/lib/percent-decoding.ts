/** `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
export function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
