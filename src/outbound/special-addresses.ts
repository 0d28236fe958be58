// The addresses the service refuses to fetch (docs/security.md, "Fetching the open web"), as one table.
// Sources, written out by hand from the RFCs each entry names:
// - IANA IPv4 Special-Purpose Address Registry (RFC 6890, RFC 8190): every block whose "Globally Reachable"
//   is False or N/A.
// - IANA IPv6 Special-Purpose Address Registry (RFC 6890, RFC 8190): the same.
// - IANA IPv4 Multicast Address Space (RFC 5771) and IPv6 Address Space (RFC 4291, RFC 3879): multicast,
//   the deprecated site-local block, and everything outside 2000::/3, the only block allocated for global
//   unicast.
// Decisions where a registry block mixes reachable and unreachable parts: 192.0.0.0/24 and 2001::/23 are
// refused whole, including their globally reachable anycast members (PCP, TURN, DNS-SD SRP, AMT, AS112,
// ORCHIDv2, DRIP): those are service addresses, never a blog. Globally reachable blocks outside them
// (192.31.196.0/24, 192.52.193.0/24, 192.175.48.0/24, 2620:4f:8000::/48) are fetched like any address.
// Translation forms that carry an IPv4 address a public route leads to (NAT64 64:ff9b::/96, 6to4 2002::/16)
// are refused when the IPv4 address inside is. The lookup takes the most specific (longest) matching block.

export type Embedded = "nat64" | "6to4";

export interface SpecialBlock {
  cidr: string;
  name: string;
  source: string;
  /** A translation form: refused only when the IPv4 address it carries is refused. */
  embeds?: Embedded;
}

export const IPV4_SPECIAL: readonly SpecialBlock[] = [
  { cidr: "0.0.0.0/8", name: '"This network"', source: "RFC 791, RFC 1122" },
  { cidr: "10.0.0.0/8", name: "Private-Use", source: "RFC 1918" },
  { cidr: "100.64.0.0/10", name: "Shared Address Space (carrier-grade NAT)", source: "RFC 6598" },
  { cidr: "127.0.0.0/8", name: "Loopback", source: "RFC 1122" },
  { cidr: "169.254.0.0/16", name: "Link Local (cloud metadata)", source: "RFC 3927" },
  { cidr: "172.16.0.0/12", name: "Private-Use", source: "RFC 1918" },
  {
    cidr: "192.0.0.0/24",
    name: "IETF Protocol Assignments (DS-Lite, dummy address, NAT64 discovery, anycast services)",
    source: "RFC 6890, RFC 7335, RFC 7600, RFC 8880",
  },
  { cidr: "192.0.2.0/24", name: "Documentation (TEST-NET-1)", source: "RFC 5737" },
  { cidr: "192.88.99.0/24", name: "Deprecated 6to4 Relay Anycast", source: "RFC 7526" },
  { cidr: "192.168.0.0/16", name: "Private-Use", source: "RFC 1918" },
  { cidr: "198.18.0.0/15", name: "Benchmarking", source: "RFC 2544" },
  { cidr: "198.51.100.0/24", name: "Documentation (TEST-NET-2)", source: "RFC 5737" },
  { cidr: "203.0.113.0/24", name: "Documentation (TEST-NET-3)", source: "RFC 5737" },
  { cidr: "224.0.0.0/4", name: "Multicast", source: "RFC 5771" },
  { cidr: "240.0.0.0/4", name: "Reserved", source: "RFC 1112" },
  { cidr: "255.255.255.255/32", name: "Limited Broadcast", source: "RFC 8190, RFC 919" },
];

export const IPV6_SPECIAL: readonly SpecialBlock[] = [
  { cidr: "::/3", name: "Reserved by IETF (not global unicast)", source: "RFC 4291" },
  { cidr: "::/128", name: "Unspecified Address", source: "RFC 4291" },
  { cidr: "::1/128", name: "Loopback Address", source: "RFC 4291" },
  { cidr: "::/96", name: "IPv4-Compatible (deprecated)", source: "RFC 4291" },
  { cidr: "::ffff:0:0/96", name: "IPv4-mapped Address", source: "RFC 4291" },
  { cidr: "::ffff:0:0:0/96", name: "IPv4-translated Address (SIIT)", source: "RFC 2765" },
  { cidr: "64:ff9b::/96", name: "IPv4-IPv6 Translation (NAT64)", source: "RFC 6052", embeds: "nat64" },
  { cidr: "64:ff9b:1::/48", name: "IPv4-IPv6 Translation, local use", source: "RFC 8215" },
  { cidr: "100::/64", name: "Discard-Only Address Block", source: "RFC 6666" },
  { cidr: "100:0:0:1::/64", name: "Dummy IPv6 Prefix", source: "RFC 9780" },
  { cidr: "2001::/23", name: "IETF Protocol Assignments", source: "RFC 2928" },
  { cidr: "2001::/32", name: "TEREDO (the IPv4 address behind it is hidden)", source: "RFC 4380, RFC 8190" },
  { cidr: "2001:2::/48", name: "Benchmarking", source: "RFC 5180" },
  { cidr: "2001:10::/28", name: "Deprecated (previously ORCHID)", source: "RFC 4843" },
  { cidr: "2001:db8::/32", name: "Documentation", source: "RFC 3849" },
  { cidr: "2002::/16", name: "6to4", source: "RFC 3056", embeds: "6to4" },
  { cidr: "3fff::/20", name: "Documentation", source: "RFC 9637" },
  { cidr: "4000::/2", name: "Reserved by IETF (not global unicast)", source: "RFC 4291" },
  { cidr: "5f00::/16", name: "Segment Routing (SRv6) SIDs", source: "RFC 9602" },
  { cidr: "8000::/1", name: "Reserved by IETF (not global unicast)", source: "RFC 4291" },
  { cidr: "fc00::/7", name: "Unique-Local", source: "RFC 4193, RFC 8190" },
  { cidr: "fe80::/10", name: "Link-Local Unicast", source: "RFC 4291" },
  { cidr: "fec0::/10", name: "Site-Local (deprecated)", source: "RFC 3879" },
  { cidr: "ff00::/8", name: "Multicast", source: "RFC 4291" },
];

// ---------------------------------------------------------------------------------------------------------
// Addresses as integers

/** An address as an integer (32 bits for IPv4, 128 for IPv6). */
export type Address = { family: 4 | 6; value: bigint };

export function ipv4ToAddress(bytes: readonly number[]): Address {
  return { family: 4, value: bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n) };
}

export function ipv6ToAddress(groups: readonly number[]): Address {
  return { family: 6, value: groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n) };
}

const bitsOf = (family: 4 | 6) => (family === 4 ? 32n : 128n);

export function formatAddress({ family, value }: Address): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  return groups.join(":");
}

export interface ParsedBlock extends SpecialBlock {
  family: 4 | 6;
  prefix: number;
  first: bigint;
  last: bigint;
}

function parseTextIPv4(text: string): bigint {
  const parts = text.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255))
    throw new Error(`bad IPv4 block ${text}`);
  return ipv4ToAddress(parts).value;
}

function parseTextIPv6(text: string): bigint {
  const [head = "", tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const fill = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(fill).fill("0"), ...tailGroups].map((g) => parseInt(g, 16));
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) throw new Error(`bad IPv6 block ${text}`);
  return ipv6ToAddress(groups).value;
}

function parseBlock(block: SpecialBlock, family: 4 | 6): ParsedBlock {
  const [base = "", length = ""] = block.cidr.split("/");
  const prefix = Number(length);
  const bits = bitsOf(family);
  const hostBits = bits - BigInt(prefix);
  const first = family === 4 ? parseTextIPv4(base) : parseTextIPv6(base);
  const last = first | ((1n << hostBits) - 1n);
  if (first & ((1n << hostBits) - 1n)) throw new Error(`${block.cidr} has host bits set`);
  return { ...block, family, prefix, first, last };
}

/** The table with each block's first and last address; most specific first, so the first match wins. */
export const SPECIAL_BLOCKS: readonly ParsedBlock[] = [
  ...IPV4_SPECIAL.map((b) => parseBlock(b, 4)),
  ...IPV6_SPECIAL.map((b) => parseBlock(b, 6)),
].sort((a, b) => b.prefix - a.prefix);

/** The most specific special-purpose block holding `address`, if any. */
export function specialBlockOf(address: Address): ParsedBlock | undefined {
  return SPECIAL_BLOCKS.find((b) => b.family === address.family && address.value >= b.first && address.value <= b.last);
}

function embeddedIPv4(address: Address, form: Embedded): Address {
  const value = form === "nat64" ? address.value & 0xffffffffn : (address.value >> 80n) & 0xffffffffn;
  return { family: 4, value };
}

/** Why `address` must not be fetched (the block it falls in), or null when it is globally reachable. */
export function refusedBlock(address: Address): ParsedBlock | null {
  const block = specialBlockOf(address);
  if (!block) return null;
  if (!block.embeds) return block;
  return refusedBlock(embeddedIPv4(address, block.embeds));
}
