import { execFileSync, spawnSync } from "node:child_process";
import { X509Certificate, createPrivateKey, createPublicKey } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tls from "node:tls";
import { afterAll, describe, expect, it } from "vitest";
import {
  WebhookCertsError,
  createWebhookServer,
  makeWebhookCerts,
  serviceDnsNames,
  type CertKeyType,
  type WebhookCerts,
} from "../../../src/admission/server/index.js";

// openssl is the oracle for what the certificates say; a Node TLS client that
// trusts only the CA, against the webhook server itself, for what they do.

const dir = mkdtempSync(join(tmpdir(), "clusterwire-certs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function write(certs: WebhookCerts): { ca: string; cert: string; key: string } {
  const sub = join(dir, String(n++));
  execFileSync("mkdir", ["-p", sub]);
  const paths = { ca: join(sub, "ca.crt"), cert: join(sub, "tls.crt"), key: join(sub, "tls.key") };
  writeFileSync(paths.ca, certs.caCert);
  writeFileSync(paths.cert, certs.cert);
  writeFileSync(paths.key, certs.key);
  return paths;
}

function openssl(args: string[]): { code: number; out: string } {
  const r = spawnSync("openssl", args, { encoding: "utf8" });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describe.each<CertKeyType>(["ecdsa-p256", "rsa-2048"])("makeWebhookCerts (%s)", (keyType) => {
  const now = new Date("2030-01-02T03:04:05.678Z");
  const made = makeWebhookCerts({
    service: "clusterwire-webhook",
    namespace: "clusterwire",
    dnsNames: ["webhook.example.com", "clusterwire-webhook.clusterwire.svc"],
    days: 30,
    keyType,
    now,
  });

  it("makes a serving certificate that openssl verifies against the CA, for TLS servers", async () => {
    const paths = write(await made);
    const attime = String(Math.floor(now.getTime() / 1000));
    const verify = openssl(["verify", "-attime", attime, "-purpose", "sslserver", "-CAfile", paths.ca, paths.cert]);
    expect(verify.out).toContain(": OK");
    expect(verify.code).toBe(0);
    // The CA does not verify as a server certificate, and a different CA does not verify this one.
    const other = write(await makeWebhookCerts({ service: "clusterwire-webhook", namespace: "clusterwire", now }));
    expect(openssl(["verify", "-attime", attime, "-CAfile", other.ca, paths.cert]).code).not.toBe(0);
  });

  it("names the Service's four DNS names, then the extra ones, once each", async () => {
    const certs = await made;
    const paths = write(certs);
    const san = openssl(["x509", "-in", paths.cert, "-noout", "-ext", "subjectAltName"]).out;
    const names = [...san.matchAll(/DNS:([^,\s]+)/g)].map((m) => m[1]);
    expect(names).toEqual([
      "clusterwire-webhook",
      "clusterwire-webhook.clusterwire",
      "clusterwire-webhook.clusterwire.svc",
      "clusterwire-webhook.clusterwire.svc.cluster.local",
      "webhook.example.com",
    ]);
    expect(certs.dnsNames).toEqual(names);
  });

  it("marks the CA as a CA for signing certificates only, and the serving certificate for serverAuth only", async () => {
    const paths = write(await made);
    const ext = (file: string, name: string): string =>
      openssl(["x509", "-in", file, "-noout", "-ext", name]).out.replace(/\s+/g, " ");
    expect(ext(paths.ca, "basicConstraints")).toMatch(/critical CA:TRUE, pathlen:0/);
    expect(ext(paths.ca, "keyUsage")).toMatch(/critical Certificate Sign, CRL Sign $/);
    expect(ext(paths.cert, "basicConstraints")).toMatch(/critical CA:FALSE/);
    expect(ext(paths.cert, "keyUsage")).toMatch(
      keyType === "rsa-2048" ? /critical Digital Signature, Key Encipherment $/ : /critical Digital Signature $/,
    );
    expect(ext(paths.cert, "extendedKeyUsage")).toMatch(/TLS Web Server Authentication $/);
    // The serving certificate's authority key id is the CA's subject key id.
    const ski = ext(paths.ca, "subjectKeyIdentifier").match(/([0-9A-F]{2}(:[0-9A-F]{2}){19})/)?.[1];
    expect(ski).toBeDefined();
    expect(ext(paths.cert, "authorityKeyIdentifier")).toContain(ski);
  });

  it("is valid from a little before `now` for the days asked", async () => {
    const certs = await made;
    const x = new X509Certificate(certs.cert);
    const notBefore = new Date(x.validFrom).getTime();
    const notAfter = new Date(x.validTo).getTime();
    expect(notBefore).toBeLessThanOrEqual(now.getTime());
    expect(now.getTime() - notBefore).toBeLessThanOrEqual(10 * 60 * 1000);
    expect(Math.abs(notAfter - (now.getTime() + 30 * 86_400_000))).toBeLessThan(1000);
    expect(certs.notAfter.getTime()).toBe(notAfter);
    expect(certs.notBefore.getTime()).toBe(notBefore);
    const ca = new X509Certificate(certs.caCert);
    expect(ca.validTo).toBe(x.validTo);
    expect(x.checkIssued(ca)).toBe(true);
    expect(x.verify(ca.publicKey)).toBe(true);
  });

  it("gives the key of the serving certificate, of the type asked, and a caBundle that is base64 of ca.crt", async () => {
    const certs = await made;
    const key = createPrivateKey(certs.key);
    expect(key.asymmetricKeyType).toBe(keyType === "rsa-2048" ? "rsa" : "ec");
    if (keyType === "rsa-2048") expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    else expect(key.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    const x = new X509Certificate(certs.cert);
    expect(x.checkPrivateKey(key)).toBe(true);
    expect(createPublicKey(key).export({ type: "spki", format: "der" })).toEqual(
      x.publicKey.export({ type: "spki", format: "der" }),
    );
    expect(certs.key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(Buffer.from(certs.caBundle, "base64").toString("utf8")).toBe(certs.caCert);
    expect(certs.cert).not.toContain(certs.caCert.split("\n")[1]);
  });
});

describe("the webhook server with the certificates made", () => {
  it("is trusted by a client that trusts only the CA, for each DNS name, and refused for any other name", async () => {
    const certs = await makeWebhookCerts({
      service: "clusterwire-webhook",
      namespace: "clusterwire",
      dnsNames: ["webhook.example.com"],
    });
    const paths = write(certs);
    const server = await createWebhookServer({
      tls: { certFile: paths.cert, keyFile: paths.key },
      port: 0,
      host: "127.0.0.1",
    });
    const connect = (servername: string): Promise<string> =>
      new Promise((resolve) => {
        const socket = tls.connect({ host: "127.0.0.1", port: server.port, servername, ca: certs.caCert }, () => {
          socket.end();
          resolve("ok");
        });
        socket.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      });
    try {
      for (const name of certs.dnsNames) expect(await connect(name), name).toBe("ok");
      expect(await connect("clusterwire-webhook.other.svc")).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
      expect(await connect("example.com")).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
      // A client trusting another CA refuses the chain whatever the name.
      const other = await makeWebhookCerts({ service: "clusterwire-webhook", namespace: "clusterwire" });
      const untrusted = await new Promise<string>((resolve) => {
        const socket = tls.connect(
          {
            host: "127.0.0.1",
            port: server.port,
            servername: "clusterwire-webhook.clusterwire.svc",
            ca: other.caCert,
          },
          () => {
            socket.end();
            resolve("ok");
          },
        );
        socket.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      });
      expect(untrusted).not.toBe("ok");
    } finally {
      await server.close();
    }
  });
});

describe("IP addresses in the serving certificate", () => {
  const made = makeWebhookCerts({
    service: "clusterwire-webhook",
    namespace: "clusterwire",
    ipAddresses: ["127.0.0.1", "::1", "2001:DB8:0:0::a", "192.0.2.7", "127.0.0.1", "::ffff:10.1.2.3"],
  });

  it("writes them as iPAddress names after the DNS names, once each, as openssl reads them", async () => {
    const certs = await made;
    const paths = write(certs);
    const san = openssl(["x509", "-in", paths.cert, "-noout", "-ext", "subjectAltName"]).out;
    expect([...san.matchAll(/DNS:([^,\s]+)/g)].map((m) => m[1])).toEqual(
      serviceDnsNames("clusterwire-webhook", "clusterwire"),
    );
    // openssl prints IPv6 addresses uncompressed, in upper case.
    expect([...san.matchAll(/IP Address:([^,\s]+)/g)].map((m) => m[1])).toEqual([
      "127.0.0.1",
      "0:0:0:0:0:0:0:1",
      "2001:DB8:0:0:0:0:0:A",
      "192.0.2.7",
      "0:0:0:0:0:FFFF:A01:203",
    ]);
    expect(san.indexOf("DNS:")).toBeLessThan(san.indexOf("IP Address:"));
    expect(certs.ipAddresses).toEqual(["127.0.0.1", "::1", "2001:db8::a", "192.0.2.7", "::ffff:a01:203"]);
    expect(openssl(["verify", "-purpose", "sslserver", "-CAfile", paths.ca, paths.cert]).code).toBe(0);
    // openssl checks an address against the iPAddress names only.
    expect(openssl(["verify", "-CAfile", paths.ca, "-verify_ip", "127.0.0.1", paths.cert]).code).toBe(0);
    expect(openssl(["verify", "-CAfile", paths.ca, "-verify_ip", "::1", paths.cert]).code).toBe(0);
    expect(openssl(["verify", "-CAfile", paths.ca, "-verify_ip", "127.0.0.2", paths.cert]).code).not.toBe(0);
  });

  it("lets a client that trusts only the CA connect to https://127.0.0.1 and checks the address", async () => {
    const certs = await made;
    const paths = write(certs);
    const server = await createWebhookServer({
      tls: { certFile: paths.cert, keyFile: paths.key },
      port: 0,
      host: "127.0.0.1",
    });
    const connect = (ca: string, servername?: string): Promise<string> =>
      new Promise((resolve) => {
        const socket = tls.connect(
          { host: "127.0.0.1", port: server.port, ca, ...(servername === undefined ? {} : { servername }) },
          () => {
            socket.end();
            resolve("ok");
          },
        );
        socket.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      });
    try {
      // No servername: Node checks the address it connected to against the IP names.
      expect(await connect(certs.caCert)).toBe("ok");
      // A certificate without the address is refused for it.
      const without = await makeWebhookCerts({ service: "clusterwire-webhook", namespace: "clusterwire" });
      const other = write(without);
      const plain = await createWebhookServer({
        tls: { certFile: other.cert, keyFile: other.key },
        port: 0,
        host: "127.0.0.1",
      });
      try {
        const refused = await new Promise<string>((resolve) => {
          const socket = tls.connect({ host: "127.0.0.1", port: plain.port, ca: without.caCert }, () => {
            socket.end();
            resolve("ok");
          });
          socket.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        });
        expect(refused).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
      } finally {
        await plain.close();
      }
    } finally {
      await server.close();
    }
  });

  it.each([["127.0.0.1"], ["::1"], ["[::1]"], ["10.0.0.1"]])(
    "refuses the IP address %s given as a DNS name",
    async (address) => {
      const e = await makeWebhookCerts({ service: "w", namespace: "ns", dnsNames: [address] }).catch(
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(WebhookCertsError);
      expect((e as WebhookCertsError).option).toBe("dnsNames");
      expect((e as Error).message).toMatch(/is an IP address/);
    },
  );

  it.each([["localhost"], ["256.1.1.1"], ["01.2.3.4"], ["fe80::1%eth0"], [""], ["1.2.3"], ["[::1]"]])(
    "refuses %j as an IP address",
    async (address) => {
      const e = await makeWebhookCerts({ service: "w", namespace: "ns", ipAddresses: [address] }).catch(
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(WebhookCertsError);
      expect((e as WebhookCertsError).option).toBe("ipAddresses");
    },
  );
});

describe("makeWebhookCerts options", () => {
  it("lists the Service's names as the API server and pods call it", () => {
    expect(serviceDnsNames("w", "ns")).toEqual(["w", "w.ns", "w.ns.svc", "w.ns.svc.cluster.local"]);
  });

  it.each([
    [{ service: "Webhook", namespace: "ns" }, "service"],
    [{ service: "1webhook", namespace: "ns" }, "service"],
    [{ service: "w".repeat(64), namespace: "ns" }, "service"],
    [{ service: "webhook", namespace: "" }, "namespace"],
    [{ service: "webhook", namespace: "a.b" }, "namespace"],
    [{ service: "webhook", namespace: "ns", dnsNames: ["bad_name"] }, "dnsNames"],
    [{ service: "webhook", namespace: "ns", dnsNames: ["a..b"] }, "dnsNames"],
    [{ service: "webhook", namespace: "ns", dnsNames: [`${"a".repeat(64)}.com`] }, "dnsNames"],
    [{ service: "webhook", namespace: "ns", days: 0 }, "days"],
    [{ service: "webhook", namespace: "ns", days: 1.5 }, "days"],
    [{ service: "webhook", namespace: "ns", days: 3651 }, "days"],
    [{ service: "webhook", namespace: "ns", keyType: "dsa" as CertKeyType }, "keyType"],
  ])("refuses %j naming %s", async (options, option) => {
    const e = await makeWebhookCerts(options).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(WebhookCertsError);
    expect((e as WebhookCertsError).option).toBe(option);
  });

  it("keeps common names within X.520's 64 characters for the longest Service and namespace names", async () => {
    const service = `s${"e".repeat(62)}`;
    const namespace = `n${"s".repeat(62)}`;
    const certs = await makeWebhookCerts({ service, namespace });
    const paths = write(certs);
    expect(openssl(["verify", "-purpose", "sslserver", "-CAfile", paths.ca, paths.cert]).code).toBe(0);
    for (const pem of [certs.caCert, certs.cert]) {
      const cn = /CN=(.*)/.exec(new X509Certificate(pem).subject)?.[1] ?? "";
      expect(cn.length).toBeGreaterThan(0);
      expect(cn.length).toBeLessThanOrEqual(64);
    }
    expect(new X509Certificate(certs.cert).checkHost(`${service}.${namespace}.svc`)).toBe(
      `${service}.${namespace}.svc`,
    );
  });

  it("takes a wildcard DNS name", async () => {
    const certs = await makeWebhookCerts({ service: "w", namespace: "ns", dnsNames: ["*.example.com"] });
    expect(certs.dnsNames).toContain("*.example.com");
    // checkHost answers with the name that matched.
    const x = new X509Certificate(certs.cert);
    expect(x.checkHost("a.example.com")).toBe("*.example.com");
    expect(x.checkHost("a.b.example.com")).toBeUndefined();
  });
});
