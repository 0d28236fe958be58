// The special-purpose address table (src/outbound/special-addresses.ts), range by range: the first and last
// address of every block are refused, and the addresses just outside are allowed unless another block of
// the table holds them. The expected block lists below are written from the IANA registries independently
// of the table, so a block dropped from (or added to) the table fails here.
import { describe, expect, it } from "vitest";
import { assertFetchableUrl, isBlockedAddress } from "../../src/outbound/address-policy";
import { FetchError } from "../../src/outbound/fetch-error";
import {
  type Address,
  formatAddress,
  IPV4_SPECIAL,
  IPV6_SPECIAL,
  type ParsedBlock,
  SPECIAL_BLOCKS,
} from "../../src/outbound/special-addresses";

const EXPECTED_V4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "255.255.255.255/32",
];

const EXPECTED_V6 = [
  "::/3",
  "::/128",
  "::1/128",
  "::/96",
  "::ffff:0:0/96",
  "::ffff:0:0:0/96",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "100::/64",
  "100:0:0:1::/64",
  "2001::/23",
  "2001::/32",
  "2001:2::/48",
  "2001:10::/28",
  "2001:db8::/32",
  "2002::/16",
  "3fff::/20",
  "4000::/2",
  "5f00::/16",
  "8000::/1",
  "fc00::/7",
  "fe80::/10",
  "fec0::/10",
  "ff00::/8",
];

const literal = (address: Address) => formatAddress(address);
const within = (b: ParsedBlock, a: Address) => b.family === a.family && a.value >= b.first && a.value <= b.last;

describe("special-purpose address table", () => {
  it("covers every block of both registries that is not globally reachable, each with its source", () => {
    expect(IPV4_SPECIAL.map((b) => b.cidr).sort()).toEqual([...EXPECTED_V4].sort());
    expect(IPV6_SPECIAL.map((b) => b.cidr).sort()).toEqual([...EXPECTED_V6].sort());
    for (const block of [...IPV4_SPECIAL, ...IPV6_SPECIAL]) {
      expect(block.source).toMatch(/^RFC \d+/);
      expect(block.name.length).toBeGreaterThan(3);
    }
  });

  // Translation blocks carry an IPv4 address: their first and last embed 0.0.0.0 and 255.255.255.255,
  // both refused, so they are refused at both ends too.
  it.each(SPECIAL_BLOCKS.map((b) => [b.cidr, b] as const))("refuses the first and last address of %s", (_, b) => {
    expect(isBlockedAddress(literal({ family: b.family, value: b.first }))).toBe(true);
    expect(isBlockedAddress(literal({ family: b.family, value: b.last }))).toBe(true);
  });

  it.each(SPECIAL_BLOCKS.map((b) => [b.cidr, b] as const))("allows the neighbours of %s", (_, b) => {
    const max = b.family === 4 ? (1n << 32n) - 1n : (1n << 128n) - 1n;
    const neighbours = [b.first - 1n, b.last + 1n].filter((v) => v >= 0n && v <= max);
    for (const value of neighbours) {
      const address: Address = { family: b.family, value };
      const holder = SPECIAL_BLOCKS.find((other) => within(other, address));
      // A neighbour inside another block is that block's business (its own test); otherwise it is public.
      if (holder && !holder.embeds) expect(isBlockedAddress(literal(address))).toBe(true);
      else if (!holder) expect(isBlockedAddress(literal(address)), literal(address)).toBe(false);
    }
  });

  it.each([
    "http://192.0.2.1/",
    "http://203.0.113.1/",
    "http://198.51.100.7/",
    "http://192.88.99.1/",
    "http://198.19.255.255/",
    "http://100.127.255.255/",
    "http://[fec0::1]/",
    "http://[100::1]/",
    "http://[::ffff:0:7f00:1]/", // SIIT form of 127.0.0.1
    "http://[::ffff:93.184.215.14]/", // IPv4-mapped: not globally reachable whatever it maps
    "http://[64:ff9b::7f00:1]/", // NAT64 of 127.0.0.1
    "http://[64:ff9b::a00:1]/", // NAT64 of 10.0.0.1
    "http://[64:ff9b:1::5db8:d70e]/", // local-use NAT64
    "http://[3fff::1]/",
    "http://[5f00::1]/",
    "http://[2001:2::1]/",
    "http://[4000::1]/",
  ])("refuses the blog address %s", (url) => {
    expect(() => assertFetchableUrl(url, false)).toThrow(FetchError);
  });

  it.each([
    "http://93.184.215.14/",
    "http://192.31.196.1/", // AS112: globally reachable in the registry
    "http://192.0.3.0/",
    "http://[64:ff9b::5db8:d70e]/", // NAT64 of the public 93.184.215.14
    "http://[2002:5db8:d70e::1]/", // 6to4 of the same
    "http://[2606:4700::1111]/",
    "http://[2620:4f:8000::1]/", // AS112 direct delegation: globally reachable
  ])("allows the public address %s", (url) => {
    expect(assertFetchableUrl(url, false).protocol).toBe("http:");
  });
});
