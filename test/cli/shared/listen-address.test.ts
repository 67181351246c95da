import { describe, expect, it } from "vitest";
import {
  DEFAULT_LISTEN_HOST,
  EVERY_INTERFACE,
  exposureWarning,
  isLoopbackHost,
} from "../../../src/cli/shared/listen-address.js";

// The one rule both serving commands follow: loopback by default, and a
// warning on stderr for any address other hosts can reach.

describe("isLoopbackHost", () => {
  it.each(["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST", "::ffff:127.0.0.1"])(
    "%s is loopback",
    (host) => expect(isLoopbackHost(host)).toBe(true),
  );
  it.each(["0.0.0.0", "::", "*", "10.0.0.1", "192.168.1.2", "example.com", "128.0.0.1", "localhost.example.com"])(
    "%s is not",
    (host) => expect(isLoopbackHost(host)).toBe(false),
  );
  it("the default is loopback", () => {
    expect(DEFAULT_LISTEN_HOST).toBe("127.0.0.1");
    expect(isLoopbackHost(DEFAULT_LISTEN_HOST)).toBe(true);
  });
});

describe("exposureWarning", () => {
  it("says nothing for loopback", () => {
    expect(exposureWarning("webhook serve", "127.0.0.1")).toBe("");
    expect(exposureWarning("storage serve", "::1", "; more")).toBe("");
  });

  it("names the command and the address, then what it adds, as one line", () => {
    expect(
      exposureWarning(
        "storage serve",
        "0.0.0.0",
        "; without --https-key and --https-cert the password travels in clear",
      ),
    ).toBe(
      "clusterwire storage serve: warning: listening on 0.0.0.0, reachable from other hosts; without --https-key and --https-cert the password travels in clear\n",
    );
    expect(exposureWarning("webhook serve", EVERY_INTERFACE)).toBe(
      "clusterwire webhook serve: warning: listening on every interface (*), reachable from other hosts\n",
    );
  });
});
