import { describe, expect, it } from "vitest";
import type { Exchange, Recording } from "./recording.js";
import { clientFixturePath, secretIn } from "./scenario.js";

const b64 = (text: string): string => Buffer.from(text).toString("base64");
const exchange = (over: Partial<Exchange>): Exchange => ({
  method: "GET",
  url: "/apis/networking.k8s.io/v1/ingresses",
  requestType: "",
  accept: "application/json",
  requestBody: "",
  status: 200,
  responseType: "application/json",
  warnings: [],
  responseBody: b64("{}"),
  complete: true,
  ...over,
});

describe("secretIn", () => {
  it("finds a secret in a URL, in either body once decoded, and in the headers kept", () => {
    const recording: Recording = {
      server: "v1.35.4",
      exchanges: [
        exchange({}),
        exchange({ url: "/x?token=s3cret-token" }),
        exchange({ method: "POST", requestBody: b64('{"token":"s3cret-token"}') }),
        exchange({ responseBody: b64("\u0000k8s s3cret-token") }),
        exchange({ warnings: ['299 - "s3cret-token"'] }),
      ],
    };
    expect(secretIn(recording, "s3cret-token")).toEqual([
      "exchange 1 (GET /x?token=s3cret-token): url",
      "exchange 2 (POST /apis/networking.k8s.io/v1/ingresses): requestBody",
      "exchange 3 (GET /apis/networking.k8s.io/v1/ingresses): responseBody",
      "exchange 4 (GET /apis/networking.k8s.io/v1/ingresses): headers",
    ]);
    expect(secretIn(recording, "another-token")).toEqual([]);
  });
});

describe("clientFixturePath", () => {
  it("names test/fixtures/client/<version>.json.gz under the root", () => {
    expect(clientFixturePath("v1.37.2", "/repo")).toBe("/repo/test/fixtures/client/v1.37.2.json.gz");
  });
});
