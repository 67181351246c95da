// The informer bench's command line: defaults, every flag, and what it refuses.
import { describe, expect, it } from "vitest";
import { parseOptions, selected, UsageError } from "../../../bench/client/options.js";

describe("parseOptions", () => {
  it("has the documented defaults", () => {
    expect(parseOptions([])).toEqual({
      version: "v1.35.4",
      count: 10_000,
      kinds: ["Ingress", "NetworkPolicy"],
      namespaces: 50,
      rounds: 5,
      liveRounds: 3,
      pageSize: 500,
      concurrency: 32,
      filter: "",
      json: false,
      saveRecordings: "",
      recordings: "",
    });
  });

  it("reads every flag; kinds case-insensitively, once each, in the order given", () => {
    expect(
      parseOptions([
        "--version=v1.37.2",
        "--count",
        "200",
        "--kinds",
        "networkpolicy, Ingress,NETWORKPOLICY",
        "--namespaces=3",
        "--rounds=7",
        "--live-rounds=1",
        "--page-size=50",
        "--concurrency=4",
        "--filter=Replay:Ingress",
        "--json",
        "--save-recordings=/tmp/streams",
      ]),
    ).toEqual({
      version: "v1.37.2",
      count: 200,
      kinds: ["NetworkPolicy", "Ingress"],
      namespaces: 3,
      rounds: 7,
      liveRounds: 1,
      pageSize: 50,
      concurrency: 4,
      filter: "replay:ingress",
      json: true,
      saveRecordings: "/tmp/streams",
      recordings: "",
    });
    expect(parseOptions(["--recordings", "/tmp/streams"])).toMatchObject({
      recordings: "/tmp/streams",
      saveRecordings: "",
    });
    expect(parseOptions(["--help"])).toBe("help");
    expect(parseOptions(["-h", "--count=0"])).toBe("help");
  });

  it.each([
    [["--count=0"], /--count must be a whole number from 1/],
    [["--count=1e4"], /--count/],
    [["--rounds=-1"], /--rounds/],
    [["--page-size="], /--page-size/],
    [["--concurrency=2.5"], /--concurrency/],
    [["--live-rounds=x"], /--live-rounds/],
    [["--kinds=Ingress,Service"], /"Service" is not one of Ingress, NetworkPolicy/],
    [["--version=1.35"], /--version must be a release/],
    [["--bogus"], /bogus/],
    [["--recordings=a", "--save-recordings=b"], /give one of them/],
    [["positional"], /positional/],
  ])("refuses %j with a UsageError", (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
    expect(() => parseOptions(argv)).toThrow(message);
  });
});

describe("selected", () => {
  it('matches "phase:Kind" case-insensitively; no filter selects everything', () => {
    expect(selected({ filter: "" }, "live", "Ingress")).toBe(true);
    expect(selected({ filter: "replay" }, "replay", "NetworkPolicy")).toBe(true);
    expect(selected({ filter: "replay" }, "list", "NetworkPolicy")).toBe(false);
    expect(selected({ filter: "list:ingress" }, "list", "Ingress")).toBe(true);
    expect(selected({ filter: "list:ingress" }, "list", "NetworkPolicy")).toBe(false);
    expect(selected({ filter: "networkpolicy" }, "live", "NetworkPolicy")).toBe(true);
  });
});
