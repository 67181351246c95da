// Read-only inventory endpoints and the jobs endpoint:
//   /api/cluster/nodes[/<uuid>], /api/svm/svms[/<uuid>], /api/storage/aggregates[/<uuid>],
//   /api/storage/volumes[/<uuid>] (volumes carry their qtrees), /api/storage/luns[/<uuid>],
//   /api/cluster/jobs[/<uuid>] (GET; PATCH ?action=cancel on a job not yet ended).

import { badState, invalid, notFound } from "./errors.js";
import { type Ctx, type Resource, type Route, UUID_RE, instanceReply, listReply, param, selfLink } from "./http.js";
import type { Ref } from "./inventory.js";
import type { FieldPolicy, JsonObject } from "./json.js";
import { compact } from "./json.js";
import { type ServerState, svmRef } from "./state.js";

const simple = (known: string[], expensive: string[] = []): FieldPolicy => ({
  known,
  expensive,
  collectionDefault: ["name"],
  instanceIncludesExpensive: true,
  keys: ["uuid", "name"],
});

export const JOB_FIELDS: FieldPolicy = {
  known: [
    "uuid",
    "description",
    "state",
    "message",
    "code",
    "error.code",
    "error.message",
    "start_time",
    "end_time",
    "svm.uuid",
    "svm.name",
  ],
  expensive: [],
  collectionDefault: [],
  instanceIncludesExpensive: true,
  keys: ["uuid"],
};

export class ClusterInventory implements Resource {
  constructor(private readonly state: ServerState) {}

  private collection(base: string, policy: FieldPolicy, records: () => JsonObject[]): Route[] {
    const one = (ctx: Ctx): JsonObject => {
      const r = records().find((x) => x["uuid"] === param(ctx, 0));
      if (r === undefined) throw notFound("Entry not found.", "uuid");
      return r;
    };
    return [
      { pattern: new RegExp(`^${base}$`), methods: { GET: (ctx) => listReply(ctx, records(), policy) } },
      { pattern: new RegExp(`^${base}/${UUID_RE}$`), methods: { GET: (ctx) => instanceReply(ctx, one(ctx), policy) } },
    ];
  }

  routes(): readonly Route[] {
    const inv = this.state.inventory;
    const jobs = this.state.jobs;
    const aggrRef = (name: string): JsonObject => {
      const a = inv.aggregates.find((x) => x.name === name);
      return { name, uuid: a?.uuid ?? "" };
    };
    const link = (base: string, r: Ref): JsonObject => selfLink(`${base}/${r.uuid}`);
    return [
      ...this.collection("/api/cluster/nodes", simple(["uuid", "name", "model"]), () =>
        inv.nodes.map((n) => ({ uuid: n.uuid, name: n.name, model: n.model, _links: link("/api/cluster/nodes", n) })),
      ),
      ...this.collection("/api/svm/svms", simple(["uuid", "name"]), () =>
        inv.svms.map((s) => ({ uuid: s.uuid, name: s.name, _links: link("/api/svm/svms", s) })),
      ),
      ...this.collection("/api/storage/aggregates", simple(["uuid", "name", "node.uuid", "node.name"]), () =>
        inv.aggregates.map((a) => {
          const node = inv.nodes.find((n) => n.name === a.node);
          return {
            uuid: a.uuid,
            name: a.name,
            node: { uuid: node?.uuid ?? "", name: a.node },
            _links: link("/api/storage/aggregates", a),
          };
        }),
      ),
      ...this.collection(
        "/api/storage/volumes",
        simple([
          "uuid",
          "name",
          "svm.uuid",
          "svm.name",
          "size",
          "style",
          "state",
          "aggregates.name",
          "aggregates.uuid",
          "nas.path",
          "qtrees.id",
          "qtrees.name",
          "quota.enabled",
        ]),
        () =>
          inv.volumes.map((v) =>
            compact({
              uuid: v.uuid,
              name: v.name,
              svm: svmRef(v.svm),
              size: v.size,
              style: v.style,
              state: v.state,
              aggregates: v.aggregates.map(aggrRef),
              nas: v.path === undefined ? undefined : { path: v.path },
              qtrees: v.qtrees.map((q) => ({ id: q.id, name: q.name })),
              quota: { enabled: v.quotaEnabled },
              _links: link("/api/storage/volumes", v),
            }),
          ),
      ),
      ...this.collection(
        "/api/storage/luns",
        simple(["uuid", "name", "svm.uuid", "svm.name", "os_type", "space.size", "status.mapped"]),
        () =>
          inv.luns.map((l) => ({
            uuid: l.uuid,
            name: l.name,
            svm: svmRef(l.svm),
            os_type: l.os_type,
            space: { size: l.size },
            status: { mapped: l.mapped },
            _links: link("/api/storage/luns", l),
          })),
      ),
      { pattern: /^\/api\/cluster\/jobs$/, methods: { GET: (ctx) => listReply(ctx, jobs.records(), JOB_FIELDS) } },
      {
        pattern: new RegExp(`^/api/cluster/jobs/${UUID_RE}$`),
        methods: {
          GET: (ctx) => {
            const r = jobs.record(param(ctx, 0));
            if (r === undefined) throw notFound("Job not found.", "uuid");
            return instanceReply(ctx, r, JOB_FIELDS);
          },
          PATCH: (ctx) => {
            const action = ctx.query.single("action");
            ctx.query.returnTimeout(0);
            ctx.query.done();
            if (jobs.record(param(ctx, 0)) === undefined) throw notFound("Job not found.", "uuid");
            if (action === undefined) throw invalid("action", `Query parameter "action" is required.`);
            if (action !== "cancel") {
              if (action === "pause" || action === "resume")
                throw badState(`This job does not support the "${action}" action.`, "action");
              throw invalid("action", `Query parameter "action" must be pause, resume or cancel.`);
            }
            if (!jobs.cancel(param(ctx, 0))) throw badState("The job has already ended.", "action");
            return { status: 200, body: {} };
          },
        },
      },
    ];
  }
}
