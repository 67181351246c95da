// A private CA and a serving certificate for the webhook's Service, for
// clusters without cert-manager: the API server trusts the CA through the
// webhook configuration's caBundle and checks the serving certificate's DNS
// names against the Service it calls (NAME.NAMESPACE.svc).
//
// Library choice: node:crypto makes keys but cannot issue certificates.
// @peculiar/x509 needs a global `reflect-metadata` polyfill (an import-time
// change to the global Reflect, which this project's rules forbid), and
// node-forge issues RSA certificates only, with pure-JS key generation. pkijs
// (with asn1js, its ASN.1 layer) builds the RFC 5280 structures and signs with
// WebCrypto, so ECDSA P-256 and RSA 2048 keys are both made natively by Node.
// It is loaded only when certificates are made, so serving never pays for it.

import { X509Certificate, createHash, createPrivateKey, randomBytes, webcrypto } from "node:crypto";
import { isIP } from "node:net";

type CryptoKeyPair = webcrypto.CryptoKeyPair;

/**
 * The key algorithms {@link makeWebhookCerts} can make.
 *
 * @example
 * ```ts
 * import { makeWebhookCerts } from "clusterwire/admission/server";
 *
 * const certs = await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks", keyType: "rsa-2048" });
 * ```
 */
export type CertKeyType = "ecdsa-p256" | "rsa-2048";
/**
 * Every {@link CertKeyType}, the default first.
 *
 * @example
 * ```ts
 * import { CERT_KEY_TYPES, type CertKeyType } from "clusterwire/admission/server";
 *
 * const isKeyType = (s: string): s is CertKeyType => (CERT_KEY_TYPES as readonly string[]).includes(s);
 * ```
 */
export const CERT_KEY_TYPES: readonly CertKeyType[] = ["ecdsa-p256", "rsa-2048"];
/**
 * The validity {@link makeWebhookCerts} gives both certificates when `days` is not set.
 *
 * @example
 * ```ts
 * import { DEFAULT_CERT_DAYS, makeWebhookCerts } from "clusterwire/admission/server";
 *
 * const certs = await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks", days: DEFAULT_CERT_DAYS * 2 });
 * ```
 */
export const DEFAULT_CERT_DAYS = 365;
/**
 * Ten years: longer-lived keys are for a real CA, not for a webhook's own.
 *
 * @example
 * ```ts
 * import { MAX_CERT_DAYS, makeWebhookCerts } from "clusterwire/admission/server";
 *
 * const certs = await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks", days: MAX_CERT_DAYS });
 * ```
 */
export const MAX_CERT_DAYS = 3650;
/** notBefore is set this far in the past, so a node whose clock is a little behind accepts a new certificate. */
const BACKDATE_MS = 5 * 60 * 1000;

/**
 * Options of {@link makeWebhookCerts}: the Service the certificate is for, and how it is made.
 *
 * @example
 * ```ts
 * import { makeWebhookCerts } from "clusterwire/admission/server";
 *
 * const certs = await makeWebhookCerts({
 *   service: "clusterwire",
 *   namespace: "webhooks",
 *   dnsNames: ["webhook.example.com"],
 *   days: 90,
 * });
 * ```
 */
export interface WebhookCertsOptions {
  /** The webhook's Service name (an RFC 1035 label). */
  readonly service: string;
  /** Its namespace (an RFC 1123 label). */
  readonly namespace: string;
  /** More DNS names for the serving certificate (RFC 1123 subdomains, or `*.` and one). */
  readonly dnsNames?: readonly string[];
  /**
   * IP addresses for the serving certificate (IPv4 or IPv6, without a zone),
   * for clients that call the webhook by address, e.g. `https://127.0.0.1:8443`.
   */
  readonly ipAddresses?: readonly string[];
  /** Validity of both certificates, in days; default 365. */
  readonly days?: number;
  /** Default ecdsa-p256. */
  readonly keyType?: CertKeyType;
  /** The issue time; default now. */
  readonly now?: Date;
}

/**
 * A CA and a serving certificate signed by it, in PEM, with the caBundle a webhook configuration takes.
 *
 * @example
 * ```ts
 * import { makeWebhookCerts } from "clusterwire/admission/server";
 *
 * const certs = await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" });
 * console.log(certs.dnsNames, certs.notAfter.toISOString());
 * // clientConfig: { service: { name: "clusterwire", namespace: "webhooks", path: "/validate" }, caBundle: certs.caBundle }
 * ```
 */
export interface WebhookCerts {
  /** The CA certificate (PEM): the Secret's ca.crt, and the caBundle once base64-encoded. */
  readonly caCert: string;
  /** The serving certificate (PEM), followed by nothing else: the CA is not sent by the server. */
  readonly cert: string;
  /** The serving certificate's private key (PKCS #8 PEM). The CA's key is not kept. */
  readonly key: string;
  /** base64 of caCert, as ValidatingWebhookConfiguration.webhooks[].clientConfig.caBundle takes it. */
  readonly caBundle: string;
  /** The serving certificate's DNS names (subjectAltName), in order. */
  readonly dnsNames: readonly string[];
  /** The serving certificate's IP addresses (subjectAltName), in order and in their canonical form (`2001:db8::1`). */
  readonly ipAddresses: readonly string[];
  /** Start of both certificates' validity (a few minutes before they were made). */
  readonly notBefore: Date;
  /** End of both certificates' validity. */
  readonly notAfter: Date;
}

/**
 * An option that cannot make a certificate; `option` names it.
 *
 * @example
 * ```ts
 * import { WebhookCertsError, makeWebhookCerts } from "clusterwire/admission/server";
 *
 * try {
 *   await makeWebhookCerts({ service: "Not_A_Label", namespace: "webhooks" });
 * } catch (e) {
 *   if (e instanceof WebhookCertsError) console.log(e.option, e.message); // "service" ...
 * }
 * ```
 */
export class WebhookCertsError extends Error {
  /** Always `"WebhookCertsError"`. */
  override readonly name = "WebhookCertsError";
  /**
   * @param option The option that is wrong.
   * @param message What is wrong with it.
   */
  constructor(
    readonly option: "service" | "namespace" | "dnsNames" | "ipAddresses" | "days" | "keyType",
    message: string,
  ) {
    super(message);
  }
}

const DNS1035_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS1123_SUBDOMAIN_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The names the Service answers to inside the cluster, shortest first:
 * NAME, NAME.NS, NAME.NS.svc (the one the API server uses) and
 * NAME.NS.svc.cluster.local.
 *
 * @example
 * ```ts
 * import { serviceDnsNames } from "clusterwire/admission/server";
 *
 * console.log(serviceDnsNames("clusterwire", "webhooks"));
 * // [ "clusterwire", "clusterwire.webhooks", "clusterwire.webhooks.svc", "clusterwire.webhooks.svc.cluster.local" ]
 * ```
 */
export function serviceDnsNames(service: string, namespace: string): string[] {
  return [
    service,
    `${service}.${namespace}`,
    `${service}.${namespace}.svc`,
    `${service}.${namespace}.svc.cluster.local`,
  ];
}

/** Checks the options; throws WebhookCertsError naming the first bad one. */
function checkOptions(options: WebhookCertsOptions): {
  dnsNames: string[];
  ipAddresses: string[];
  days: number;
  keyType: CertKeyType;
} {
  if (!DNS1035_LABEL.test(options.service))
    throw new WebhookCertsError(
      "service",
      `service ${JSON.stringify(options.service)}: a Service name must be at most 63 lower-case letters, digits or '-', starting with a letter and ending with a letter or digit`,
    );
  if (!DNS1123_LABEL.test(options.namespace))
    throw new WebhookCertsError(
      "namespace",
      `namespace ${JSON.stringify(options.namespace)}: a namespace must be at most 63 lower-case letters, digits or '-', starting and ending with a letter or digit`,
    );
  const dnsNames = serviceDnsNames(options.service, options.namespace);
  for (const name of options.dnsNames ?? []) {
    // A client calling https://127.0.0.1 checks the IP addresses, never the DNS names.
    if (isIP(ipWithoutBrackets(name)) !== 0)
      throw new WebhookCertsError(
        "dnsNames",
        `DNS name ${JSON.stringify(name)} is an IP address: clients check an address they call against the certificate's IP addresses, so give it as an IP address`,
      );
    if (!isDnsName(name))
      throw new WebhookCertsError(
        "dnsNames",
        `DNS name ${JSON.stringify(name)}: must be a lower-case DNS name of at most 253 characters (labels of letters, digits and '-'), optionally starting with '*.'`,
      );
    if (!dnsNames.includes(name)) dnsNames.push(name);
  }
  const ipAddresses: string[] = [];
  for (const address of options.ipAddresses ?? []) {
    const canonical = canonicalIp(address);
    if (canonical === undefined)
      throw new WebhookCertsError(
        "ipAddresses",
        `IP address ${JSON.stringify(address)}: must be an IPv4 address (192.0.2.10) or an IPv6 address (2001:db8::10) without a zone`,
      );
    if (!ipAddresses.includes(canonical)) ipAddresses.push(canonical);
  }
  const days = options.days ?? DEFAULT_CERT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_CERT_DAYS)
    throw new WebhookCertsError("days", `days must be a whole number from 1 to ${MAX_CERT_DAYS}, got ${days}`);
  const keyType = options.keyType ?? "ecdsa-p256";
  if (!CERT_KEY_TYPES.includes(keyType))
    throw new WebhookCertsError(
      "keyType",
      `key type ${JSON.stringify(keyType)}: must be one of ${CERT_KEY_TYPES.join(", ")}`,
    );
  return { dnsNames, ipAddresses, days, keyType };
}

function ipWithoutBrackets(address: string): string {
  return address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
}

/** The address as Node prints it (IPv6 compressed, lower case), or undefined if it is not one; a zone is refused. */
function canonicalIp(address: string): string | undefined {
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6 || address.includes("%")) return undefined;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** The 4 (IPv4) or 16 (IPv6) bytes of a canonical address, as the iPAddress GeneralName holds them (RFC 5280 4.2.1.6). */
function ipAddressBytes(address: string): Uint8Array {
  if (isIP(address) === 4) return Uint8Array.from(address.split(".").map(Number));
  const [head = "", tail] = address.split("::") as [string, string | undefined];
  const groups = (part: string): number[] => {
    if (part === "") return [];
    const out: number[] = [];
    for (const group of part.split(":")) {
      if (group.includes(".")) {
        const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(Number.parseInt(group, 16));
    }
    return out;
  };
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

function isDnsName(name: string): boolean {
  const bare = name.startsWith("*.") ? name.slice(2) : name;
  if (bare.length === 0 || name.length > 253) return false;
  return bare.split(".").every((label) => label.length <= 63 && DNS1123_SUBDOMAIN_LABEL.test(label));
}

const KEY_ALGORITHMS: Readonly<Record<CertKeyType, webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams>> = {
  "ecdsa-p256": { name: "ECDSA", namedCurve: "P-256" },
  "rsa-2048": {
    name: "RSASSA-PKCS1-v1_5",
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: "SHA-256",
  },
};

// Object identifiers (RFC 5280 4.2.1 and X.520).
const OID = {
  commonName: "2.5.4.3",
  subjectKeyIdentifier: "2.5.29.14",
  keyUsage: "2.5.29.15",
  subjectAltName: "2.5.29.17",
  basicConstraints: "2.5.29.19",
  authorityKeyIdentifier: "2.5.29.35",
  extKeyUsage: "2.5.29.37",
  serverAuth: "1.3.6.1.5.5.7.3.1",
} as const;

// KeyUsage bits, numbered from the most significant bit of the first byte.
const DIGITAL_SIGNATURE = 0;
const KEY_ENCIPHERMENT = 2;
const KEY_CERT_SIGN = 5;
const CRL_SIGN = 6;

/**
 * Makes a fresh CA (its key is used once and dropped) and a serving
 * certificate signed by it for the Service's DNS names, `dnsNames` and
 * `ipAddresses`. Throws WebhookCertsError for bad options (an IP address
 * given as a DNS name among them).
 *
 * @example
 * ```ts
 * import { makeWebhookCerts } from "clusterwire/admission/server";
 *
 * const certs = await makeWebhookCerts({ service: "clusterwire", namespace: "webhooks" });
 * console.log(certs.cert.startsWith("-----BEGIN CERTIFICATE-----")); // true
 * ```
 */
export async function makeWebhookCerts(options: WebhookCertsOptions): Promise<WebhookCerts> {
  const { dnsNames, ipAddresses, days, keyType } = checkOptions(options);
  const [pkijs, asn1js] = await Promise.all([import("pkijs"), import("asn1js")]);
  // An engine of our own rather than pkijs's process-wide default.
  const engine = new pkijs.CryptoEngine({ name: "node", crypto: webcrypto as unknown as EngineCrypto<typeof pkijs> });
  const algorithm = KEY_ALGORITHMS[keyType];
  const generate = (): Promise<CryptoKeyPair> =>
    webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]) as Promise<CryptoKeyPair>;
  const [caKeys, serverKeys] = await Promise.all([generate(), generate()]);

  const now = options.now ?? new Date();
  const notBefore = new Date(Math.floor((now.getTime() - BACKDATE_MS) / 1000) * 1000);
  const notAfter = new Date(Math.floor(now.getTime() / 1000) * 1000 + days * 86_400_000);

  type Pkijs = typeof pkijs;
  type Certificate = InstanceType<Pkijs["Certificate"]>;
  const name = (target: Certificate["subject"], commonName: string): void => {
    target.typesAndValues.push(
      new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: commonName }) }),
    );
  };
  const keyUsage = (bits: readonly number[]): InstanceType<Pkijs["Extension"]> => {
    // DER: the shortest bit string, its unused trailing bits counted.
    const last = Math.max(...bits);
    const bytes = new Uint8Array(Math.floor(last / 8) + 1);
    for (const bit of bits) bytes[bit >> 3] = (bytes[bit >> 3] ?? 0) | (0x80 >> (bit & 7));
    const value = new asn1js.BitString({ valueHex: bytes, unusedBits: 7 - (last & 7) });
    return new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: value.toBER(false) });
  };
  const keyId = (cert: Certificate): ArrayBuffer => {
    // RFC 5280 4.2.1.2 method (1): SHA-1 of the subjectPublicKey bits.
    const bits = cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
    return new Uint8Array(createHash("sha1").update(bits).digest()).buffer;
  };
  const base = async (keys: CryptoKeyPair, subject: string, issuer: string): Promise<Certificate> => {
    const cert = new pkijs.Certificate();
    cert.version = 2;
    // 16 random bytes (RFC 5280 4.1.2.2): the top bit cleared so the INTEGER
    // is positive, and the first byte never 0, so its DER needs no padding.
    const serial = randomBytes(16);
    serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x01;
    cert.serialNumber = new asn1js.Integer({ valueHex: serial });
    name(cert.subject, subject);
    name(cert.issuer, issuer);
    cert.notBefore.value = notBefore;
    cert.notAfter.value = notAfter;
    await cert.subjectPublicKeyInfo.importKey(keys.publicKey, engine);
    return cert;
  };
  const extension = (
    extnID: string,
    critical: boolean,
    value: { toSchema(): { toBER(sizeOnly?: boolean): ArrayBuffer } },
  ) => new pkijs.Extension({ extnID, critical, extnValue: value.toSchema().toBER(false) });

  // X.520 caps a common name at 64 characters; the DNS names are in the SANs anyway.
  const caName = `clusterwire webhook CA ${notBefore.toISOString().replace(/\.\d+Z$/, "Z")}`;
  const ca = await base(caKeys, caName, caName);
  const caKeyId = keyId(ca);
  ca.extensions = [
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: true, pathLenConstraint: 0 })),
    keyUsage([KEY_CERT_SIGN, CRL_SIGN]),
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      critical: false,
      extnValue: new asn1js.OctetString({ valueHex: caKeyId }).toBER(false),
    }),
  ];
  await ca.sign(caKeys.privateKey, "SHA-256", engine);

  const serviceName = serviceDnsNames(options.service, options.namespace)[2] as string;
  const server = await base(serverKeys, serviceName.length <= 64 ? serviceName : options.service, caName);
  server.extensions = [
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: false })),
    // RSA key exchange (TLS 1.2's RSA suites) needs keyEncipherment; ECDSA signs only.
    keyUsage(keyType === "rsa-2048" ? [DIGITAL_SIGNATURE, KEY_ENCIPHERMENT] : [DIGITAL_SIGNATURE]),
    extension(OID.extKeyUsage, false, new pkijs.ExtKeyUsage({ keyPurposes: [OID.serverAuth] })),
    // The API server checks these names only (the common name is ignored by Go's TLS).
    extension(
      OID.subjectAltName,
      false,
      new pkijs.GeneralNames({
        names: [
          ...dnsNames.map((value) => new pkijs.GeneralName({ type: 2, value })),
          // iPAddress (tag 7): the address's network-order bytes in an OCTET STRING.
          ...ipAddresses.map(
            (ip) =>
              new pkijs.GeneralName({
                type: 7,
                value: new asn1js.OctetString({ valueHex: ipAddressBytes(ip).slice().buffer }),
              }),
          ),
        ],
      }),
    ),
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      critical: false,
      extnValue: new asn1js.OctetString({ valueHex: keyId(server) }).toBER(false),
    }),
    extension(
      OID.authorityKeyIdentifier,
      false,
      new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: caKeyId }) }),
    ),
  ];
  await server.sign(caKeys.privateKey, "SHA-256", engine);

  const caCert = pem(ca.toSchema(true).toBER(false));
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", serverKeys.privateKey);
  const key = createPrivateKey({ key: Buffer.from(pkcs8), format: "der", type: "pkcs8" })
    .export({ type: "pkcs8", format: "pem" })
    .toString();
  return {
    caCert,
    cert: pem(server.toSchema(true).toBER(false)),
    key,
    caBundle: Buffer.from(caCert, "utf8").toString("base64"),
    dnsNames,
    ipAddresses,
    notBefore,
    notAfter,
  };
}

type EngineCrypto<P extends typeof import("pkijs")> = ConstructorParameters<P["CryptoEngine"]>[0]["crypto"];

/** PEM by Node's own X.509 parser, which also reads the DER back once. */
function pem(der: ArrayBuffer): string {
  return new X509Certificate(Buffer.from(der)).toString();
}
