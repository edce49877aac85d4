import { describe, expect, it } from "vitest";
import { ipLiteral, isPrivateHost, isPublicAddress } from "../../../workers/http/address.ts";

/**
 * The address judgement of the guarded fetch (workers/http/address.ts,
 * decision 076): every spelling of a non-public address, as a user writes it
 * in a URL and as the URL parser hands it over, and as a resolver answers it.
 */

/** Written in a URL: what the URL parser makes of it, then the judgement. */
const NON_PUBLIC_URLS: [string, string][] = [
  // IPv4 in every spelling the URL parser accepts: all come out as dotted quads.
  ["http://127.0.0.1/", "127.0.0.1"],
  ["http://127.8.9.10/", "127.8.9.10"],
  ["http://2130706433/", "127.0.0.1"],
  ["http://0x7f000001/", "127.0.0.1"],
  ["http://0x7f.1/", "127.0.0.1"],
  ["http://017700000001/", "127.0.0.1"],
  ["http://0177.0.0.1/", "127.0.0.1"],
  ["http://127.1/", "127.0.0.1"],
  ["http://127.0.0.1./", "127.0.0.1"],
  ["http://%31%32%37.0.0.1/", "127.0.0.1"],
  ["http://0/", "0.0.0.0"],
  ["http://0.0.0.0/", "0.0.0.0"],
  ["http://10.0.0.1/", "10.0.0.1"],
  ["http://172.16.0.1/", "172.16.0.1"],
  ["http://172.31.255.255/", "172.31.255.255"],
  ["http://192.168.1.10/", "192.168.1.10"],
  ["http://169.254.169.254/", "169.254.169.254"],
  ["http://100.64.0.1/", "100.64.0.1"],
  ["http://100.127.255.254/", "100.127.255.254"],
  ["http://192.0.0.8/", "192.0.0.8"],
  ["http://192.0.2.1/", "192.0.2.1"],
  ["http://192.88.99.1/", "192.88.99.1"],
  ["http://198.18.0.1/", "198.18.0.1"],
  ["http://198.51.100.1/", "198.51.100.1"],
  ["http://203.0.113.1/", "203.0.113.1"],
  ["http://224.0.0.1/", "224.0.0.1"],
  ["http://239.255.255.250/", "239.255.255.250"],
  ["http://240.0.0.1/", "240.0.0.1"],
  ["http://255.255.255.255/", "255.255.255.255"],
  // IPv6, and IPv4 carried inside IPv6.
  ["http://[::]/", "::"],
  ["http://[::1]/", "::1"],
  ["http://[0:0:0:0:0:0:0:1]/", "::1"],
  ["http://[::7f00:1]/", "::7f00:1"], // IPv4-compatible 127.0.0.1
  ["http://[::127.0.0.1]/", "::7f00:1"],
  ["http://[::5db8:d822]/", "::5db8:d822"], // IPv4-compatible of a public address: the prefix is refused whole
  ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"], // IPv4-mapped
  ["http://[::ffff:7f00:1]/", "::ffff:7f00:1"],
  ["http://[0:0:0:0:0:ffff:127.0.0.1]/", "::ffff:7f00:1"],
  ["http://[::ffff:a9fe:a9fe]/", "::ffff:a9fe:a9fe"], // 169.254.169.254
  ["http://[::ffff:192.168.0.1]/", "::ffff:c0a8:1"],
  ["http://[::ffff:0:7f00:1]/", "::ffff:0:7f00:1"], // IPv4-translated
  ["http://[::ffff:0:5db8:d822]/", "::ffff:0:5db8:d822"], // IPv4-translated of a public address: refused whole
  ["http://[64:ff9b::127.0.0.1]/", "64:ff9b::7f00:1"], // NAT64
  ["http://[64:ff9b::a00:1]/", "64:ff9b::a00:1"],
  ["http://[64:ff9b:1::7f00:1]/", "64:ff9b:1::7f00:1"], // local-use NAT64: refused whole
  ["http://[64:ff9b:1::5db8:d822]/", "64:ff9b:1::5db8:d822"],
  ["http://[64:ff9b:1:ffff::1]/", "64:ff9b:1:ffff::1"],
  ["http://[2002:7f00:1::]/", "2002:7f00:1::"], // 6to4 of 127.0.0.1
  ["http://[2002:a00:1::1]/", "2002:a00:1::1"], // 6to4 of 10.0.0.1
  ["http://[2002:a9fe:a9fe::]/", "2002:a9fe:a9fe::"], // 6to4 of 169.254.169.254
  ["http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "2001:0:4136:e378:8000:63bf:3fff:fdd2"], // Teredo
  ["http://[2001:2::1]/", "2001:2::1"], // benchmarking
  ["http://[2001:db8::1]/", "2001:db8::1"], // documentation
  ["http://[3fff::1]/", "3fff::1"], // documentation
  ["http://[100::1]/", "100::1"], // discard
  ["http://[fc00::1]/", "fc00::1"],
  ["http://[fd12:3456::1]/", "fd12:3456::1"],
  ["http://[fe80::1]/", "fe80::1"],
  ["http://[febf::1]/", "febf::1"],
  ["http://[fec0::1]/", "fec0::1"], // site-local
  ["http://[ff02::1]/", "ff02::1"],
  ["http://[::5efe:10.0.0.1]/", "::5efe:a00:1"], // ISATAP identifier without a global prefix
];

const PUBLIC_URLS: [string, string][] = [
  ["http://8.8.8.8/", "8.8.8.8"],
  ["http://93.184.216.34/", "93.184.216.34"],
  ["http://172.32.0.1/", "172.32.0.1"],
  ["http://192.169.0.1/", "192.169.0.1"],
  ["http://100.128.0.1/", "100.128.0.1"],
  ["http://198.20.0.1/", "198.20.0.1"],
  ["http://[2606:4700:4700::1111]/", "2606:4700:4700::1111"],
  ["http://[2a00:1450:4009:803::200e]/", "2a00:1450:4009:803::200e"],
  ["http://[::ffff:8.8.8.8]/", "::ffff:808:808"],
  ["http://[64:ff9b::8.8.8.8]/", "64:ff9b::808:808"],
  ["http://[2002:808:808::1]/", "2002:808:808::1"],
  ["http://[2001:4860:4860::8888]/", "2001:4860:4860::8888"],
];

describe("the guarded fetch's address judgement", () => {
  it("refuses every spelling of a non-public address, judging the IPv4 address carried in IPv6 where it is really used", () => {
    for (const [written, literal] of NON_PUBLIC_URLS) {
      const host = new URL(written).hostname;
      expect(ipLiteral(host), written).toBe(literal);
      expect(isPublicAddress(literal), written).toBe(false);
      expect(isPrivateHost(host), written).toBe(true);
    }
  });

  it("lets public addresses through, in URLs and as a resolver writes them", () => {
    for (const [written, literal] of PUBLIC_URLS) {
      expect(ipLiteral(new URL(written).hostname), written).toBe(literal);
      expect(isPublicAddress(literal), written).toBe(true);
    }
    for (const answer of ["2606:2800:220:1:248:1893:25c8:1946", "2A00:1450:4009:0803:0000:0000:0000:200E", "::FFFF:93.184.216.34"]) {
      expect(isPublicAddress(answer), answer).toBe(true);
    }
  });

  it("judges a resolver's answers in any textual form, and refuses what it cannot read", () => {
    for (const answer of [
      "127.0.0.1",
      "0:0:0:0:0:0:0:1",
      "::FFFF:127.0.0.1",
      "FE80::1",
      "2001:DB8::1",
      "",
      "not an address",
      "1.2.3",
      "1.2.3.256",
      "1::2::3",
      "12345::1",
      "127.0.0.1.5",
    ]) {
      expect(isPublicAddress(answer), answer).toBe(false);
    }
  });

  it("refuses names that only mean something inside a network, without asking DNS", () => {
    for (const host of [
      "localhost",
      "localhost.",
      "api.localhost",
      "printer.local",
      "metadata.google.internal",
      "nas.lan",
      "router.home.arpa",
      "box.localdomain",
      "router",
      "intranet",
    ]) {
      expect(ipLiteral(host), host).toBeNull();
      expect(isPrivateHost(host), host).toBe(true);
    }
    for (const host of ["example.com", "blog.example.co.uk", "127.0.0.1.nip.io"]) expect(isPrivateHost(host), host).toBe(false);
  });
});
