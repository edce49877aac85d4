import { createSign, createVerify, generateKeyPairSync, type KeyObject } from "node:crypto";

/**
 * How PayPal signs a webhook transmission (PayPal's "verify webhook signature"
 * docs): SHA256withRSA over `{PAYPAL-TRANSMISSION-ID}|{PAYPAL-TRANSMISSION-TIME}|
 * {webhook id}|{CRC32 of the raw body, decimal}`, base64 in
 * PAYPAL-TRANSMISSION-SIG, the signer's certificate at PAYPAL-CERT-URL. The
 * stand-in signs with a key pair made when the sandbox starts and serves the
 * public key (PEM) at its cert URL.
 */

export const CERT_ID = "CERT-360caa42-fca2a594-sandbox01";
/** Below the stand-in's /paypal prefix. */
export const CERT_PATH = `/v1/notifications/certs/${CERT_ID}`;

let keys: { privateKey: KeyObject; publicKey: KeyObject } | null = null;
function keyPair() {
  keys ??= generateKeyPairSync("rsa", { modulusLength: 2048 });
  return keys;
}

export function certPem(): string {
  return keyPair().publicKey.export({ type: "spki", format: "pem" }).toString();
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of the UTF-8 text, as an unsigned decimal number. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const message = (transmissionId: string, transmissionTime: string, webhookId: string, crc: number) =>
  `${transmissionId}|${transmissionTime}|${webhookId}|${crc}`;

export function signTransmission(transmissionId: string, transmissionTime: string, webhookId: string, crc: number): string {
  return createSign("RSA-SHA256")
    .update(message(transmissionId, transmissionTime, webhookId, crc))
    .sign(keyPair().privateKey, "base64");
}

export function verifyTransmission(input: { transmissionId: string; transmissionTime: string; webhookId: string; crc: number; signature: string }): boolean {
  try {
    return createVerify("RSA-SHA256")
      .update(message(input.transmissionId, input.transmissionTime, input.webhookId, input.crc))
      .verify(keyPair().publicKey, input.signature, "base64");
  } catch {
    return false;
  }
}
