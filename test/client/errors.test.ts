import { describe, expect, it } from "vitest";
import { ApiError, apiErrorOf, mediaType, RequestError, statusOf } from "../../src/client/errors.js";
import { create, encode, IngressSchema, StatusSchema, toJsonString } from "../../src/networking/index.js";

const PATH = "/apis/networking.k8s.io/v1/namespaces/shop/ingresses";
const INVALID = create(StatusSchema, {
  status: "Failure",
  code: 422,
  reason: "Invalid",
  message: 'Ingress.networking.k8s.io "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"',
  details: {
    name: "Bad_Name",
    group: "networking.k8s.io",
    kind: "Ingress",
    causes: [
      { reason: "FieldValueInvalid", message: 'Invalid value: "Bad_Name"', field: "metadata.name" },
      { reason: "FieldValueRequired", message: "Required value" },
    ],
  },
});

describe("apiErrorOf", () => {
  it("reads a protobuf Status: status, reason, causes, method, path and the message", () => {
    const e = apiErrorOf(
      "POST",
      PATH,
      422,
      "Unprocessable Entity",
      "application/vnd.kubernetes.protobuf",
      encode(INVALID),
    );
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("ApiError");
    expect([e.status, e.reason, e.method, e.path]).toEqual([422, "Invalid", "POST", PATH]);
    expect(e.statusObject?.details?.name).toBe("Bad_Name");
    expect(e.causes).toEqual([
      { field: "metadata.name", reason: "FieldValueInvalid", message: 'Invalid value: "Bad_Name"' },
      { field: "", reason: "FieldValueRequired", message: "Required value" },
    ]);
    expect(e.message).toBe(
      `POST ${PATH}: HTTP 422 Invalid: Ingress.networking.k8s.io "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"`,
    );
  });

  it("reads a JSON Status the same way, whatever the media type's parameters", () => {
    const json = Buffer.from(toJsonString(INVALID));
    const e = apiErrorOf("POST", PATH, 422, "", "application/json; charset=utf-8", json);
    expect([e.status, e.reason, e.causes.length]).toEqual([422, "Invalid", 2]);
    expect(e.message).toBe(
      apiErrorOf("POST", PATH, 422, "", "application/vnd.kubernetes.protobuf", encode(INVALID)).message,
    );
  });

  it("leaves reason and causes empty for a body that is not a Status, and says what the body was", () => {
    const html = Buffer.from("<html><body><h1>502 Bad Gateway</h1></body></html>");
    const e = apiErrorOf("GET", PATH, 502, "Bad Gateway", "text/html", html);
    expect([e.status, e.reason, e.statusObject, e.causes]).toEqual([502, "", undefined, []]);
    expect(e.message).toBe(
      `GET ${PATH}: HTTP 502: Bad Gateway: a ${html.length}-byte text/html body that is not a Status`,
    );
    // JSON or protobuf that is not a Status, or does not decode.
    const ingress = create(IngressSchema, { metadata: { name: "x" } });
    expect(
      apiErrorOf("GET", PATH, 500, "", "application/json", Buffer.from(toJsonString(ingress))).statusObject,
    ).toBeUndefined();
    expect(
      apiErrorOf("GET", PATH, 500, "", "application/json", Buffer.from('{"error":"nope"}')).statusObject,
    ).toBeUndefined();
    expect(
      apiErrorOf("GET", PATH, 500, "", "application/vnd.kubernetes.protobuf", encode(ingress)).statusObject,
    ).toBeUndefined();
    expect(
      apiErrorOf("GET", PATH, 500, "", "application/vnd.kubernetes.protobuf", Buffer.from("k8s\0junk")).statusObject,
    ).toBeUndefined();
    expect(apiErrorOf("GET", PATH, 503, "", "", Buffer.alloc(0)).message).toBe(
      `GET ${PATH}: HTTP 503: a 0-byte body without a content type that is not a Status`,
    );
  });

  it("a Status without a reason or message still reads", () => {
    const bare = create(StatusSchema, { status: "Failure", code: 500 });
    const e = apiErrorOf("GET", PATH, 500, "", "application/vnd.kubernetes.protobuf", encode(bare));
    expect([e.reason, e.message]).toEqual(["", `GET ${PATH}: HTTP 500: `]);
  });
});

describe("statusOf and mediaType", () => {
  it("decode by the media type only", () => {
    expect(statusOf("application/vnd.kubernetes.protobuf", encode(INVALID))?.reason).toBe("Invalid");
    expect(statusOf("text/plain", encode(INVALID))).toBeUndefined();
    expect(mediaType(" Application/JSON ; charset=utf-8")).toBe("application/json");
    expect(mediaType("")).toBe("");
  });
});

describe("RequestError", () => {
  it("carries its code, method, path and cause", () => {
    const cause = new Error("socket hang up");
    const e = new RequestError("network", "GET", PATH, "the connection failed: socket hang up", { cause });
    expect(e).toBeInstanceOf(Error);
    expect([e.name, e.code, e.method, e.path, e.cause]).toEqual(["RequestError", "network", "GET", PATH, cause]);
    expect(e.message).toBe(`GET ${PATH}: the connection failed: socket hang up`);
  });
});
