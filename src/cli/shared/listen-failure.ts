import { CliError, EXIT_FAILURE, EXIT_USAGE } from "./io.js";

// Why a serving command's server did not start, in the words both serving
// commands (`webhook serve`, `storage serve`) print: the address it could not
// listen on (exit 1, or 2 for an address that is not local), or the TLS key and
// certificate it could not use (exit 2).

function errorCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The CliError for a listen error (in use, no permission, no such local address) on `where` (HOST:PORT), or undefined for any other error. */
export function listenFailure(e: unknown, where: string): CliError | undefined {
  switch (errorCode(e)) {
    case "EADDRINUSE":
      return new CliError(`cannot listen on ${where}: the port is in use`, EXIT_FAILURE);
    case "EACCES":
      return new CliError(
        `cannot listen on ${where}: permission denied (ports below 1024 need privileges)`,
        EXIT_FAILURE,
      );
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new CliError(`cannot listen on ${where}: no such local address`, EXIT_USAGE);
    default:
      return undefined;
  }
}

/** The CliError naming `flags` (e.g. "--tls-cert/--tls-key") when e is OpenSSL refusing the key or certificate, or undefined. */
export function tlsMaterialFailure(e: unknown, flags: string): CliError | undefined {
  const message = String((e as { message?: unknown } | null)?.message);
  if (errorCode(e)?.startsWith("ERR_OSSL") !== true && !/key|cert|PEM/i.test(message)) return undefined;
  return new CliError(`${flags}: cannot use them: ${message}`, EXIT_USAGE);
}
