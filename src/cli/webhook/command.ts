import { isIP } from "node:net";
import { resolve } from "node:path";
import {
  CERT_KEY_TYPES,
  CertFileExistsError,
  DEFAULT_CERT_DAYS,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_PORT,
  MAX_CERT_DAYS,
  WebhookCertsError,
  createWebhookServer,
  makeWebhookCerts,
  serviceDnsNames,
  writeWebhookCertFiles,
  type CertKeyType,
  CredentialsError,
  DEFAULT_RESYNC_MS,
  inClusterCredentials,
  kubeconfigCredentials,
  type WebhookServer,
  type WebhookServerOptions,
} from "../../admission/server/index.js";
import { batchedSink, BATCH_CHARS, BATCH_DELAY_MS } from "../shared/batched-sink.js";
import { commandGroup, noPositionals, parseCommandLine, type Command } from "../shared/command.js";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, errnoMessage, usageError, type CliIO } from "../shared/io.js";
import { DEFAULT_LISTEN_HOST, EVERY_INTERFACE, exposureWarning } from "../shared/listen-address.js";
import { kubernetesVersionHelp, parseKubernetesVersion } from "../shared/kubernetes-version.js";
import { listenFailure, tlsMaterialFailure } from "../shared/listen-failure.js";
import { aborted, stopSignal } from "../shared/stop-signal.js";

const SERVE = "webhook serve";

const SERVE_HELP = `Usage: clusterwire webhook serve --tls-cert FILE --tls-key FILE [options]

Runs clusterwire as a Kubernetes ValidatingAdmissionWebhook over HTTPS
(HTTP/1.1 with keep-alive). POST /validate takes an AdmissionReview
admission.k8s.io/v1 and checks CREATE and UPDATE (and the status
subresource) of every networking.k8s.io/v1 kind as the API server would,
denying with the API server's own 422 Status and sending the API server's
warnings (non-canonical CIDRs and IPs, the deprecated
kubernetes.io/ingress.class annotation) in response.warnings; other kinds
are allowed untouched. /healthz and /readyz answer probes, /metrics
Prometheus scrapes. It logs one JSON line per review to stderr, without the
object's contents unless --log-objects; its "verdict" is the word the
metrics count it under: allowed, denied (the API server's 422), guarded
(refused by a guard), guard_not_ready (503 until a guard has listed the
cluster), bad_request (an object that cannot be decoded) or ignored (a kind
or operation not checked). Log lines are written in batches: each reaches
stderr within ${BATCH_DELAY_MS} ms (sooner once ${BATCH_CHARS / 1024} KiB are waiting), and all of
them before the command exits. On SIGINT or SIGTERM it stops taking
connections and answers the reviews in flight first.

Options:
  --tls-cert FILE       the serving certificate (PEM, with its chain)
  --tls-key FILE        its private key (PEM); both files are read again
                        when they change, as cert-manager rotates them
  --port N              port to listen on (default ${DEFAULT_PORT}; 0: a free port)
  --host H              address to listen on (default ${DEFAULT_LISTEN_HOST}: this
                        host only). In a pod, or to be called from other
                        hosts, give --host '*' (every interface, IPv6 and
                        IPv4) or an address such as 0.0.0.0; any address
                        but loopback prints a warning, as the webhook
                        answers whoever reaches it
  --max-in-flight N     reviews served at once before more are refused with
                        429 (default ${DEFAULT_MAX_IN_FLIGHT})
  --strict              guard "strict": refuse what the API server would
                        admit with warnings, with a 403 Forbidden Status
                        naming the guard and carrying each warning (the
                        object is valid, so not the API server's 422); an
                        update is refused only for warnings the stored
                        object does not have already
${kubernetesVersionHelp(24)}
  --log-objects         put each review's object and old object in its log
                        line (they may hold sensitive annotations: debugging
                        only)
  --ingress-capture     turn on the Ingress capture guard: refuse (403) an
                        Ingress that would take requests an Ingress in another
                        namespace serves, by the router's precedence rules. It
                        lists and watches Ingresses and IngressClasses (RBAC:
                        list, watch on both) and /readyz answers 503 until
                        the first lists are in.
  --kubeconfig FILE     reach the API server with FILE's current context
                        (default: the pod's in-cluster service account)
  --resync DURATION     relist them all this often: 90s, 10m, 1h30m or
                        plain seconds (default ${DEFAULT_RESYNC_MS / 60_000}m)
  -h, --help            show this help

Exit status: 0 stopped by SIGINT or SIGTERM, 1 the server could not start
(e.g. the port is in use), 2 usage error, unreadable or unusable
certificate files, or (with --ingress-capture) missing API server
credentials.

In a pod, --tls-cert and --tls-key name the files of the mounted Secret
(for example /tls/tls.crt and /tls/tls.key).

Examples:
  clusterwire webhook certs --service clusterwire-webhook --namespace clusterwire --ip 127.0.0.1 --out certs
  clusterwire webhook serve --tls-cert certs/tls.crt --tls-key certs/tls.key`;

export const serveCommand: Command = {
  name: "serve",
  summary: "serve the validating admission webhook over HTTPS until stopped",
  help: SERVE_HELP,
  async run(args, io) {
    const parsed = parseCommandLine(
      SERVE,
      SERVE_HELP,
      {
        "tls-cert": { type: "string" },
        "tls-key": { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        "max-in-flight": { type: "string" },
        strict: { type: "boolean" },
        "kubernetes-version": { type: "string" },
        "log-objects": { type: "boolean" },
        "ingress-capture": { type: "boolean" },
        kubeconfig: { type: "string" },
        resync: { type: "string" },
      },
      args,
      io,
    );
    if (parsed === undefined) return EXIT_OK;
    const { values, positionals } = parsed;
    noPositionals(SERVE, positionals);
    const cert = values["tls-cert"];
    const key = values["tls-key"];
    if (cert === undefined || key === undefined || cert === "" || key === "") {
      throw usageError("--tls-cert and --tls-key are required: a webhook is only called over HTTPS", SERVE);
    }
    if (values.host === "") throw usageError("--host must not be empty", SERVE);
    const host = values.host ?? DEFAULT_LISTEN_HOST;
    const port = wholeNumber(values.port, "--port", 0, 65535);
    const maxInFlight = wholeNumber(values["max-in-flight"], "--max-in-flight", 1, 1_000_000);
    const cwd = io.cwd ?? process.cwd();
    const ingressCapture = await captureOptions(values, io, cwd);
    const version = parseKubernetesVersion(values["kubernetes-version"], SERVE);
    const admit = {
      ...(values.strict === true ? { guards: { strict: true } } : {}),
      ...(version !== undefined ? { version } : {}),
    };
    // Log lines are gathered and written a batch at a time (see batchedSink); everything else this
    // command writes to stderr goes through the same sink, so the order is kept.
    const stderr = batchedSink(io.stderr);
    const options: WebhookServerOptions = {
      tls: { certFile: resolve(cwd, cert), keyFile: resolve(cwd, key) },
      ...(port === undefined ? {} : { port }),
      // The server's own default (no host) is every interface.
      ...(host === EVERY_INTERFACE ? {} : { host }),
      ...(maxInFlight === undefined ? {} : { maxInFlight }),
      ...(Object.keys(admit).length > 0 ? { admit } : {}),
      ...(values["log-objects"] === true ? { logObjects: true } : {}),
      ...(ingressCapture === undefined ? {} : { ingressCapture }),
      log: (line) => stderr.write(`${line}\n`),
    };
    try {
      return await serve({ ...io, stderr }, stderr.flush, options, host);
    } finally {
      stderr.close();
    }
  },
};

export const webhookCommand: Command = commandGroup(
  "webhook",
  "clusterwire as a validating admission webhook (webhook serve, webhook certs)",
  `A Kubernetes ValidatingAdmissionWebhook that refuses networking.k8s.io/v1
objects the API server would refuse, with the API server's own Status.`,
  [serveCommand, certsCommand()],
);

/** The capture guard's options from --ingress-capture, --kubeconfig and --resync; credentials are loaded now. */
async function captureOptions(
  values: { "ingress-capture"?: boolean; kubeconfig?: string; resync?: string },
  io: CliIO,
  cwd: string,
): Promise<WebhookServerOptions["ingressCapture"]> {
  if (values["ingress-capture"] !== true) {
    if (values.kubeconfig !== undefined || values.resync !== undefined) {
      throw usageError("--kubeconfig and --resync configure --ingress-capture, which is not given", SERVE);
    }
    return undefined;
  }
  const resyncMs = values.resync === undefined ? undefined : duration(values.resync, "--resync");
  try {
    const credentials =
      values.kubeconfig === undefined
        ? await inClusterCredentials(io.env ?? process.env)
        : await kubeconfigCredentials(resolve(cwd, values.kubeconfig));
    return { credentials, ...(resyncMs === undefined ? {} : { resyncMs }) };
  } catch (e) {
    if (e instanceof CredentialsError) throw new CliError(`--ingress-capture: ${e.message}`, EXIT_USAGE);
    throw e;
  }
}

/** 90s, 10m, 1h30m or plain seconds, in ms; at least a second, at most a day. */
function duration(value: string, flag: string): number {
  const m = /^(?:(\d{1,5})h)?(?:(\d{1,5})m)?(?:(\d{1,5})s)?$/.exec(value);
  const plain = /^\d{1,6}$/.test(value);
  const seconds = plain
    ? Number(value)
    : m === null || value === ""
      ? Number.NaN
      : Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  if (!(seconds >= 1 && seconds <= 86_400)) {
    throw usageError(
      `${flag} must be a duration from 1s to 24h (90s, 10m, 1h30m) or seconds, got ${JSON.stringify(value)}`,
      SERVE,
    );
  }
  return seconds * 1000;
}

function wholeNumber(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value) || Number(value) < min || Number(value) > max)
    throw usageError(`${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`, SERVE);
  return Number(value);
}

/** Serves until the stop signal; returns the exit code. */
async function serve(io: CliIO, flush: () => void, options: WebhookServerOptions, host: string): Promise<number> {
  const stop = stopSignal(io);
  try {
    let server: WebhookServer;
    try {
      server = await createWebhookServer(options);
    } catch (e) {
      throw startFailure(e, options);
    }
    io.stdout.write(
      `Admission webhook listening on ${server.url} (POST /validate). Stop it with Ctrl-C (SIGINT) or SIGTERM.\n`,
    );
    io.stderr.write(exposureWarning(SERVE, host, ", and answers every review it is sent"));
    // What starting logged is out before the first review.
    flush();
    const reason = await aborted(stop.signal);
    io.stderr.write(
      `clusterwire webhook serve: ${typeof reason === "string" && reason.startsWith("SIG") ? `${reason} received, ` : ""}draining and stopping\n`,
    );
    await server.close();
    return EXIT_OK;
  } finally {
    stop.dispose();
  }
}

/** Why the server did not start: the address (exit 1), or the certificate files (exit 2). */
function startFailure(e: unknown, options: WebhookServerOptions): CliError {
  const path = (e as { path?: unknown } | null)?.path;
  // A file system error names its path: the certificate files could not be read.
  if (typeof path === "string") return new CliError(`${path}: cannot read: ${errnoMessage(e)}`, EXIT_USAGE);
  return (
    listenFailure(e, `${options.host ?? EVERY_INTERFACE}:${options.port ?? DEFAULT_PORT}`) ??
    tlsMaterialFailure(e, "--tls-cert/--tls-key") ??
    new CliError(`cannot start the webhook: ${e instanceof Error ? e.message : String(e)}`, EXIT_FAILURE)
  );
}

/** The command-line flag of each makeWebhookCerts option, for its errors. */
const CERT_OPTION_FLAGS: Readonly<Record<WebhookCertsError["option"], string>> = {
  service: "service",
  namespace: "namespace",
  dnsNames: "dns",
  ipAddresses: "ip",
  days: "days",
  keyType: "key-type",
};

/** `webhook certs`: a CA and serving certificate for clusters without cert-manager. */
function certsCommand(): Command {
  const name = "webhook certs";
  const help = `Usage: clusterwire webhook certs --service NAME --namespace NS [options]

Makes a private CA and a serving certificate signed by it for the webhook's
Service, for clusters without cert-manager, and writes ca.crt, tls.crt and
tls.key (mode 0600) into --out. The serving certificate names NAME, NAME.NS,
NAME.NS.svc (the name the API server calls) and NAME.NS.svc.cluster.local,
then each --dns name and each --ip address.
The CA's key is not kept: to rotate, run it again and replace both the
Secret and the caBundle. Prints the caBundle (base64 of ca.crt) on stdout,
for the ValidatingWebhookConfiguration; never prints a key.

Options:
  --service NAME      the webhook's Service name (required)
  --namespace NS      its namespace (required)
  --dns NAME          one more DNS name for the certificate. Repeatable
  --ip ADDRESS        an IP address (IPv4 or IPv6) for the certificate, for
                      clients that call the webhook by address, such as
                      https://127.0.0.1:8443 in a local test. Repeatable
  --out DIR           where to write the files (default: the current directory)
  --days N            validity of both certificates (default ${DEFAULT_CERT_DAYS}, at most ${MAX_CERT_DAYS})
  --key-type TYPE     ${CERT_KEY_TYPES.join(" (default) or ")}
  --force             overwrite files that exist (otherwise nothing is written)
  -h, --help          show this help

Exit status: 0 written, 1 a file exists or cannot be written, 2 usage error.

Examples:
  clusterwire webhook certs --service clusterwire-webhook --namespace clusterwire --out certs
  clusterwire webhook certs --service clusterwire-webhook --namespace clusterwire --ip 127.0.0.1 --ip ::1 --out local-certs`;
  return {
    name: "certs",
    summary: "make a CA and serving certificate for the webhook's Service; print the caBundle",
    help,
    async run(args, io) {
      const parsed = parseCommandLine(
        name,
        help,
        {
          service: { type: "string" },
          namespace: { type: "string" },
          dns: { type: "string", multiple: true },
          ip: { type: "string", multiple: true },
          out: { type: "string" },
          days: { type: "string" },
          "key-type": { type: "string" },
          force: { type: "boolean" },
        },
        args,
        io,
      );
      if (parsed === undefined) return EXIT_OK;
      const { values, positionals } = parsed;
      noPositionals(name, positionals);
      if (values.service === undefined || values.namespace === undefined)
        throw usageError("--service and --namespace are required: they make the certificate's DNS names", name);
      const days = values.days;
      if (days !== undefined && !/^\d{1,5}$/.test(days))
        throw usageError(`--days must be a whole number from 1 to ${MAX_CERT_DAYS}, got ${JSON.stringify(days)}`, name);
      const keyType = values["key-type"];
      if (keyType !== undefined && !(CERT_KEY_TYPES as readonly string[]).includes(keyType))
        throw usageError(`--key-type must be ${CERT_KEY_TYPES.join(" or ")}, got ${JSON.stringify(keyType)}`, name);
      for (const dns of values.dns ?? []) {
        // Checked here too, so the message names the flag to use instead.
        if (isIP(dns.replace(/^\[(.*)\]$/, "$1")) !== 0)
          throw usageError(
            `--dns ${dns}: an IP address is not a DNS name (clients check an address against the certificate's IP addresses); use --ip ${dns.replace(/^\[(.*)\]$/, "$1")}`,
            name,
          );
      }
      if (values.out === "") throw usageError("--out must not be empty", name);
      const out = resolve(io.cwd ?? process.cwd(), values.out ?? ".");
      try {
        const certs = await makeWebhookCerts({
          service: values.service,
          namespace: values.namespace,
          dnsNames: values.dns ?? [],
          ipAddresses: values.ip ?? [],
          ...(days === undefined ? {} : { days: Number(days) }),
          ...(keyType === undefined ? {} : { keyType: keyType as CertKeyType }),
        });
        const files = await writeWebhookCertFiles(out, certs, { force: values.force === true });
        io.stdout.write(`${certs.caBundle}\n`);
        io.stderr.write(
          `clusterwire webhook certs: wrote ${files.caCert}, ${files.cert} and ${files.key} (mode 0600), ` +
            `valid until ${certs.notAfter.toISOString()}, for ${[...certs.dnsNames, ...certs.ipAddresses].join(", ")}\n` +
            `The caBundle above (base64 of ca.crt) goes in each webhook's clientConfig.caBundle; ` +
            `the API server calls ${serviceDnsNames(values.service, values.namespace)[2]}.\n`,
        );
        return EXIT_OK;
      } catch (e) {
        if (e instanceof WebhookCertsError) throw usageError(`--${CERT_OPTION_FLAGS[e.option]}: ${e.message}`, name);
        if (e instanceof CertFileExistsError) throw new CliError(e.message, EXIT_FAILURE);
        const path = (e as { path?: unknown } | null)?.path;
        if (typeof path === "string") throw new CliError(`${path}: cannot write: ${errnoMessage(e)}`, EXIT_FAILURE);
        throw e;
      }
    },
  };
}
