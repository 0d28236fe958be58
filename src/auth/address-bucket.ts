// Which bucket of the failed-authentication limit a client address falls in. An IPv4 address is its own
// bucket; an IPv6 client usually holds a whole /64 and could walk through it, so it is counted by its /64.

/** `203.0.113.7` → itself; `2001:db8:1:2:3:4:5:6` and `2001:db8:1:2::9` → `2001:db8:1:2::/64`. */
export function addressBucket(address: string): string {
  const text = address.trim().toLowerCase();
  if (!text.includes(":")) return text;
  // An IPv4 address written in IPv6 form (`::ffff:203.0.113.7`) is that IPv4 address.
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) return dotted[1]!;
  const [head = "", tail] = text.split("::");
  const before = head ? head.split(":") : [];
  const after = tail ? tail.split(":") : [];
  const groups =
    tail === undefined ? before : [...before, ...Array(8 - before.length - after.length).fill("0"), ...after];
  const prefix = groups.slice(0, 4).map((g) => Number.parseInt(g || "0", 16).toString(16));
  return `${prefix.join(":")}::/64`;
}
