// Shrinks a disagreeing request: drops one field or list item of its body at a time, keeping
// each drop after which the server and clusterwire still disagree in the same ways. Bounded by
// MAX_TRIES requests per disagreement.
import type { JsonObject, JsonValue, KubernetesVersion } from "../../src/networking/index.js";
import { signatureOf } from "./compare.js";
import type { ApiClient } from "./http.js";
import { bodyOf } from "./plan.js";
import { bodyValue } from "./request.js";
import { check, send, type Outcome } from "./run.js";

const MAX_TRIES = 150;

function bodyJson(o: Outcome): JsonObject | undefined {
  const v = bodyValue(o.request);
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : undefined;
}

type Path = (string | number)[];

function allPaths(v: JsonValue, at: Path, out: Path[]): void {
  if (Array.isArray(v))
    v.forEach((x, i) => {
      out.push([...at, i]);
      allPaths(x, [...at, i], out);
    });
  else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      if (at.length === 0 && (k === "apiVersion" || k === "kind")) continue;
      out.push([...at, k]);
      allPaths(x, [...at, k], out);
    }
  }
}

function without(v: JsonObject, p: Path): JsonObject {
  const copy = structuredClone(v);
  let parent: JsonValue = copy;
  for (const s of p.slice(0, -1)) parent = (parent as Record<string | number, JsonValue>)[s]!;
  const last = p[p.length - 1]!;
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete (parent as Record<string, JsonValue>)[last];
  return copy;
}

export async function minimise(client: ApiClient, outcome: Outcome, version: KubernetesVersion): Promise<Outcome> {
  let best = outcome;
  let json = bodyJson(outcome);
  if (json === undefined) return outcome;
  const target = signatureOf(outcome.differences);
  let tries = 0;
  const attempt = async (candidate: JsonObject): Promise<Outcome | undefined> => {
    const body = bodyOf(best.request.format, candidate, undefined);
    if (body === undefined) return undefined;
    const request = { ...best.request, body };
    const answer = await send(client, request);
    tries++;
    const o = { request, answer, differences: check(request, answer, version) };
    return o.differences.length > 0 && signatureOf(o.differences) === target ? o : undefined;
  };
  // The body re-rendered from its JSON must still disagree before anything is dropped.
  const first = await attempt(json);
  if (first === undefined) return outcome;
  best = first;
  let shrunk = true;
  while (shrunk && tries < MAX_TRIES) {
    shrunk = false;
    const paths: Path[] = [];
    allPaths(json, [], paths);
    for (const p of paths) {
      if (tries >= MAX_TRIES) break;
      const candidate = without(json, p);
      const o = await attempt(candidate);
      if (o !== undefined) {
        best = o;
        json = candidate;
        shrunk = true;
        break;
      }
    }
  }
  return best;
}
