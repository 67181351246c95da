// The text of the JSON, YAML and Wire tabs and of the route result, from the
// objects the editor holds. No DOM here: the tests run it in Node.
import {
  annotateWire,
  createRouter,
  encode,
  formatWireAnnotation,
  kindOf,
  toJsonString,
  toYaml,
  type Ingress,
  type IngressBackend,
  type IngressClass,
  type NetworkingObject,
  type RouteResult,
} from "../networking/index.js";

/** The API server's JSON of each object, one per line block. */
export function jsonView(objects: readonly NetworkingObject[]): string {
  return objects.map((o) => toJsonString(o)).join("\n");
}

/** The API server's YAML, documents separated by `---`. */
export function yamlView(objects: readonly NetworkingObject[]): string {
  return objects.map((o) => toYaml(o)).join("---\n");
}

/**
 * The protobuf bytes encode() writes for each object (with the Kubernetes
 * envelope), annotated field by field as annotateWire reads them.
 */
export function wireView(objects: readonly NetworkingObject[]): string {
  return objects
    .map((o) => {
      const bytes = encode(o);
      return formatWireAnnotation(annotateWire(bytes), bytes);
    })
    .join("\n");
}

/** The Ingresses and IngressClasses among `objects`, and the controllers the classes name. */
export function routingInputs(objects: readonly NetworkingObject[]): {
  ingresses: Ingress[];
  classes: IngressClass[];
  controllers: string[];
} {
  const ingresses: Ingress[] = [];
  const classes: IngressClass[] = [];
  for (const o of objects) {
    const kind = kindOf(o).kind;
    if (kind === "Ingress") ingresses.push(o as Ingress);
    else if (kind === "IngressClass") classes.push(o as IngressClass);
  }
  const controllers = [...new Set(classes.map((c) => c.spec?.controller ?? "").filter((c) => c !== ""))];
  return { ingresses, classes, controllers };
}

/**
 * Resolves a request against the editor's objects: with `controller` set,
 * only the Ingresses of that controller's classes are in scope; with it
 * empty, every Ingress is.
 */
export function resolveRoute(
  objects: readonly NetworkingObject[],
  controller: string,
  host: string,
  path: string,
): RouteResult {
  const { ingresses, classes } = routingInputs(objects);
  const router =
    controller === "" ? createRouter({ ingresses }) : createRouter({ ingresses, ingressClasses: classes, controller });
  return router.resolve({ host, path });
}

function backendText(b: IngressBackend): string {
  if (b.service !== undefined) {
    const port = b.service.port;
    const p = port === undefined ? "" : port.name !== "" ? `:${port.name}` : `:${port.number}`;
    return `service ${b.service.name}${p}`;
  }
  if (b.resource !== undefined) {
    const group = b.resource.apiGroup === undefined || b.resource.apiGroup === "" ? "" : `${b.resource.apiGroup}/`;
    return `resource ${group}${b.resource.kind} ${b.resource.name}`;
  }
  return "an empty backend";
}

/** The result in words: the backend, and why it was chosen. */
export function routeText(result: RouteResult): string[] {
  const r = result.route;
  const lines: string[] = [];
  if (r === null) {
    lines.push("No backend: nothing in scope serves this request (the controller answers 404).");
  } else {
    lines.push(`Backend: ${backendText(r.backend)}`);
    const tier = r.tier === null ? "no rule matched the host" : `the ${r.tier} host tier was selected`;
    const where =
      r.via === "path"
        ? `path ${r.path} of rule ${r.rule} of Ingress ${r.ingress} matched ${JSON.stringify(r.requestPath)}`
        : r.via === "tier-default"
          ? `no path matched, so the defaultBackend of Ingress ${r.ingress} (for that tier) was used`
          : `the defaultBackend of Ingress ${r.ingress} was used`;
    lines.push(`Why: host ${JSON.stringify(r.host)}: ${tier}; ${where}.`);
  }
  for (const s of result.skipped) {
    lines.push(
      `Left out: ${s.kind} ${s.name} (${s.errors.length} error${s.errors.length === 1 ? "" : "s"}${s.errors[0] !== undefined ? `: ${s.errors[0].field}` : ""})`,
    );
  }
  return lines;
}
