// Where a serving command (`webhook serve`, `storage serve`) listens: both
// default to the loopback interface, and both say so on stderr when they are
// told to listen where other hosts can reach them.

/** The address both serving commands listen on by default: loopback, reachable from this host only. */
export const DEFAULT_LISTEN_HOST = "127.0.0.1";

/** `--host *`: every interface, IPv6 and IPv4 where the host has both (Node's unspecified address). */
export const EVERY_INTERFACE = "*";

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\]|localhost|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/**
 * Whether `host` is a loopback address or name (127.0.0.0/8, ::1, localhost),
 * which only this host can reach.
 *
 * @example
 * isLoopbackHost("127.0.0.1"); // true
 * isLoopbackHost("0.0.0.0"); // false
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

/**
 * The warning line (with its newline) a serving command writes to stderr when
 * it listens on `host` and `host` is not loopback, or "" when it is. `more`
 * is added to the sentence, e.g. "; without --https-key and --https-cert the
 * password travels in clear".
 *
 * @example
 * io.stderr.write(exposureWarning("storage serve", "0.0.0.0"));
 * // clusterwire storage serve: warning: listening on 0.0.0.0, reachable from other hosts
 */
export function exposureWarning(command: string, host: string, more = ""): string {
  if (isLoopbackHost(host)) return "";
  const where = host === EVERY_INTERFACE ? "every interface (*)" : host;
  return `clusterwire ${command}: warning: listening on ${where}, reachable from other hosts${more}\n`;
}
