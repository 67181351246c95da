// The playground page: wires the editors and controls to analyze() and the
// views. Everything runs in the page; nothing is fetched after load.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { yaml } from "@codemirror/lang-yaml";
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { Compartment, EditorState } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import {
  DEFAULT_FEATURE_GATES,
  DEFAULT_NAMESPACE,
  DecodeError,
  decode,
  formatFieldError,
  toYaml,
  type FeatureGates,
  type Protocol,
  type NetworkingObject,
} from "../networking/index.js";
import { CELL_KINDS, cellKind } from "./cells.js";
import { analyze, isJsonText, readDocuments, type Analysis, type Operation } from "./analyze.js";
import { MAX_GRID_PODS, explain, readCluster } from "./reach.js";
import { replaceSelectionInput } from "./replace-input.js";
import { SAMPLE_CLUSTER, SAMPLE_INPUT, SAMPLE_OLD } from "./sample.js";
import { TABS, decodeState, encodeState, type PlaygroundState, type Tab } from "./state.js";
import { jsonView, resolveRoute, routeText, routingInputs, wireView, yamlView } from "./views.js";

/** How long the page waits after the last keystroke before validating again. */
const DEBOUNCE_MS = 150;

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`the page has no #${id}`);
  return el as T;
}

function lineCol(view: EditorView, offset: number): string {
  const line = view.state.doc.lineAt(Math.min(offset, view.state.doc.length));
  return `line ${line.number}, column ${offset - line.from + 1}`;
}

/** The editors' looks; style.css does not reach into their shadow roots. */
const EDITOR_THEME = EditorView.theme({
  "&": { minHeight: "200px", maxHeight: "60vh", backgroundColor: "#fff" },
  ".cm-scroller": { fontFamily: "ui-monospace, monospace", fontSize: "13px", minHeight: "200px" },
  "&.cm-focused": { outline: "2px solid #2855c8" },
});

/** One editor, with the language following the text (JSON or YAML). */
function makeEditor(
  parent: HTMLElement,
  text: string,
  testid: string,
  label: string,
  onChange: () => void,
): EditorView {
  const language = new Compartment();
  const langFor = (t: string) => (isJsonText(t) ? json() : yaml());
  let isJson = isJsonText(text);
  // CodeMirror writes its styles at run time. In a document it would add <style>
  // elements, which the page's CSP (style-src 'self') refuses; in a shadow root
  // it adopts constructed style sheets, which CSP allows. So each editor lives in one.
  const shadow = parent.attachShadow({ mode: "open" });
  const mount = document.createElement("div");
  shadow.append(mount);
  const view = new EditorView({
    parent: mount,
    root: shadow,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        lintGutter(),
        EDITOR_THEME,
        // Text typed over a selection is applied by the editor: the browser's own
        // replacement writes a style attribute, which the CSP refuses (replace-input.ts).
        replaceSelectionInput,
        // Tab indents; Escape then Tab leaves the editor (CodeMirror's tab focus mode).
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        language.of(langFor(text)),
        EditorView.contentAttributes.of({ "data-testid": testid, "aria-label": label }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          const t = u.state.doc.toString();
          if (isJsonText(t) !== isJson) {
            isJson = !isJson;
            queueMicrotask(() => view.dispatch({ effects: language.reconfigure(langFor(t)) }));
          }
          onChange();
        }),
      ],
    }),
  });
  return view;
}

function setText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

function li(text: string, where?: string): HTMLLIElement {
  const item = document.createElement("li");
  item.textContent = text;
  if (where !== undefined) item.dataset["where"] = where;
  return item;
}

function fill(list: HTMLElement, items: readonly HTMLLIElement[]): void {
  list.replaceChildren(...items);
  // An empty list is hidden from the count but stays in the page for the tests.
  list.setAttribute("aria-label", `${items.length} item${items.length === 1 ? "" : "s"}`);
}

async function start(): Promise<void> {
  const root = document.documentElement;
  const operation = byId<HTMLSelectElement>("operation");
  const namespace = byId<HTMLInputElement>("namespace");
  const gatesBox = byId<HTMLFieldSetElement>("gates");
  const oldPane = byId<HTMLDivElement>("old-pane");
  const summary = byId<HTMLParagraphElement>("summary");
  const errorsList = byId<HTMLUListElement>("errors");
  const warningsList = byId<HTMLUListElement>("warnings");
  const problemsList = byId<HTMLUListElement>("problems");
  const routeHost = byId<HTMLInputElement>("route-host");
  const routePath = byId<HTMLInputElement>("route-path");
  const routeController = byId<HTMLSelectElement>("route-controller");
  const routeResult = byId<HTMLOutputElement>("route-result");
  const pbFile = byId<HTMLInputElement>("pb-file");
  const inputHost = byId<HTMLDivElement>("input-editor");
  const reachInput = byId<HTMLTextAreaElement>("reach-input");
  const reachProtocol = byId<HTMLSelectElement>("reach-protocol");
  const reachPort = byId<HTMLInputElement>("reach-port");
  const reachStatus = byId<HTMLParagraphElement>("reach-status");
  const reachTable = byId<HTMLTableElement>("reach-table");
  const reachExplain = byId<HTMLOutputElement>("reach-explain");
  const tabs = TABS.map((t) => byId<HTMLButtonElement>(`tab-${t}`));
  const panels = new Map<Tab, HTMLElement>(TABS.map((t) => [t, byId(`panel-${t}`)]));

  const gateBoxes = new Map<string, HTMLInputElement>();
  for (const [name, on] of Object.entries(DEFAULT_FEATURE_GATES)) {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = `gate-${name}`;
    box.dataset["testid"] = `gate-${name}`;
    box.checked = on;
    const label = document.createElement("label");
    label.htmlFor = box.id;
    label.textContent = name;
    const wrap = document.createElement("span");
    wrap.append(box, label);
    gatesBox.append(wrap);
    gateBoxes.set(name, box);
  }

  const defaults: PlaygroundState = {
    input: SAMPLE_INPUT,
    old: SAMPLE_OLD,
    operation: "create",
    namespace: DEFAULT_NAMESPACE,
    gates: { ...DEFAULT_FEATURE_GATES },
    host: "shop.example.com",
    path: "/cart",
    controller: "",
    tab: "json",
    cluster: SAMPLE_CLUSTER,
    reachProtocol: "TCP",
    reachPort: "8080",
  };
  const initial = (await decodeState(location.hash, defaults)) ?? defaults;

  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (): void => {
    root.dataset["pending"] = "true";
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      refresh();
    }, DEBOUNCE_MS);
  };

  const input = makeEditor(inputHost, initial.input, "input", "Objects, YAML or JSON", schedule);
  const old = makeEditor(byId("old-editor"), initial.old, "old-input", "Old object, YAML or JSON", schedule);

  operation.value = initial.operation;
  namespace.value = initial.namespace;
  for (const [name, box] of gateBoxes) box.checked = initial.gates[name] ?? false;
  routeHost.value = initial.host;
  routePath.value = initial.path;
  reachInput.value = initial.cluster;
  reachProtocol.value = initial.reachProtocol;
  reachPort.value = initial.reachPort;
  let tab: Tab = initial.tab;
  let controller = initial.controller;

  const selectTab = (next: Tab, focus: boolean): void => {
    tab = next;
    for (const t of tabs) {
      const on = t.dataset["tab"] === next;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      if (on && focus) t.focus();
    }
    for (const [t, p] of panels) p.hidden = t !== next;
  };
  selectTab(tab, false);

  let objects: readonly NetworkingObject[] = [];

  const renderRoute = (): void => {
    const { controllers } = routingInputs(objects);
    const options = ["", ...controllers];
    if (!options.includes(controller)) controller = "";
    routeController.replaceChildren(
      ...options.map((c) => {
        const o = document.createElement("option");
        o.value = c;
        o.textContent = c === "" ? "every Ingress (no class filter)" : c;
        return o;
      }),
    );
    routeController.value = controller;
    try {
      const result = resolveRoute(objects, controller, routeHost.value, routePath.value);
      routeResult.textContent = routeText(result).join("\n");
      routeResult.dataset["route"] = JSON.stringify(result);
    } catch (e) {
      routeResult.textContent = `Cannot route: ${e instanceof Error ? e.message : String(e)}`;
      delete routeResult.dataset["route"];
    }
  };

  const renderReach = (): void => {
    reachTable.replaceChildren();
    reachExplain.textContent = "";
    const reading = readCluster(reachInput.value);
    if ("error" in reading) {
      reachStatus.textContent = `Cannot read the cluster: ${reading.error}`;
      return;
    }
    const port = /^\d+$/.test(reachPort.value.trim()) ? Number(reachPort.value.trim()) : Number.NaN;
    if (!(port >= 1 && port <= 65535)) {
      reachStatus.textContent = "The port must be a number from 1 to 65535.";
      return;
    }
    const protocol = reachProtocol.value as Protocol;
    const engine = reading.engine;
    const m = engine.matrix({ protocol, port });
    const n = m.pods.length;
    const skipped =
      engine.skipped.length > 0
        ? ` ${engine.skipped.length} polic${engine.skipped.length === 1 ? "y" : "ies"} left out (invalid or repeated).`
        : "";
    reachStatus.textContent = `${n} pods: ${m.countAllowed()} of ${n * n} connections allowed on ${protocol}/${port}.${skipped}`;
    if (n > MAX_GRID_PODS) {
      reachStatus.textContent += ` The grid is drawn for up to ${MAX_GRID_PODS} pods.`;
      return;
    }
    const head = document.createElement("tr");
    head.append(document.createElement("th"));
    for (const p of m.pods) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = p;
      head.append(th);
    }
    const thead = document.createElement("thead");
    thead.append(head);
    const tbody = document.createElement("tbody");
    m.pods.forEach((from, f) => {
      const row = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = from;
      row.append(th);
      m.pods.forEach((to, t) => {
        const allowed = m.allowed(f, t);
        const kind = cellKind(m.egressAllowed(f, t), m.ingressAllowed(f, t));
        const cell = document.createElement("td");
        const b = document.createElement("button");
        b.type = "button";
        // The colour, and a glyph besides it: ✓ allowed, E or I the direction that denies, ✗ both.
        b.className = kind;
        b.textContent = CELL_KINDS[kind].glyph;
        b.dataset["from"] = from;
        b.dataset["to"] = to;
        b.dataset["allowed"] = String(allowed);
        b.setAttribute("aria-label", `${from} to ${to}: ${CELL_KINDS[kind].words}`);
        // One tab stop for the whole grid; arrows, Home and End move inside it (a roving tabindex).
        b.tabIndex = f === 0 && t === 0 ? 0 : -1;
        b.dataset["row"] = String(f);
        b.dataset["col"] = String(t);
        b.addEventListener("click", () => {
          reachExplain.textContent = explain(engine, from, to, protocol, port).join("\n");
        });
        cell.append(b);
        row.append(cell);
      });
      tbody.append(row);
    });
    reachTable.append(thead, tbody);
    reachTable.setAttribute("aria-label", `Connections on ${protocol}/${port}: rows are sources, columns destinations`);
  };

  const state = (): PlaygroundState => ({
    input: input.state.doc.toString(),
    old: old.state.doc.toString(),
    operation: operation.value as Operation,
    namespace: namespace.value,
    gates: Object.fromEntries([...gateBoxes].map(([n, b]) => [n, b.checked])),
    host: routeHost.value,
    path: routePath.value,
    controller,
    tab,
    cluster: reachInput.value,
    reachProtocol: reachProtocol.value,
    reachPort: reachPort.value,
  });

  let hashWrite = Promise.resolve();
  const saveHash = (): void => {
    const s = state();
    // In order, and replacing the entry: typing adds no history entries.
    hashWrite = hashWrite
      .then(() => encodeState(s))
      .then((h) => window.history.replaceState(null, "", h))
      .catch(() => undefined);
  };

  const render = (a: Analysis): void => {
    objects = a.objects;
    const diagnostics: Diagnostic[] = [
      ...a.problems.map((p) => ({
        from: p.range.from,
        to: p.range.to,
        severity: "error" as const,
        message: p.message,
      })),
      ...a.errors.map((e) => ({
        from: e.range.from,
        to: e.range.to,
        severity: "error" as const,
        message: formatFieldError(e.error),
      })),
      ...a.warnings.map((w) => ({
        from: w.range.from,
        to: w.range.to,
        severity: "warning" as const,
        message: w.message,
      })),
    ];
    input.dispatch(setDiagnostics(input.state, diagnostics));
    fill(
      errorsList,
      a.errors.map((e) => li(formatFieldError(e.error), lineCol(input, e.range.from))),
    );
    fill(
      warningsList,
      a.warnings.map((w) => li(w.message, lineCol(input, w.range.from))),
    );
    fill(
      problemsList,
      a.problems.map((p) => li(p.message, lineCol(input, p.range.from))),
    );
    for (const list of [errorsList, warningsList, problemsList]) {
      for (const item of list.children) {
        const where = (item as HTMLElement).dataset["where"];
        if (where !== undefined) item.setAttribute("title", where);
      }
    }
    byId("problems-box").hidden = a.problems.length === 0;
    const n = a.objects.length;
    summary.textContent =
      `${n} object${n === 1 ? "" : "s"}: ${a.errors.length} error${a.errors.length === 1 ? "" : "s"}, ` +
      `${a.warnings.length} warning${a.warnings.length === 1 ? "" : "s"}` +
      (a.problems.length > 0 ? `, ${a.problems.length} not readable` : "");
    const views: Record<Tab, (o: readonly NetworkingObject[]) => string> = {
      json: jsonView,
      yaml: yamlView,
      wire: wireView,
    };
    for (const t of TABS) {
      try {
        panels.get(t)!.textContent = views[t](a.objects);
      } catch (e) {
        panels.get(t)!.textContent = e instanceof Error ? e.message : String(e);
      }
    }
    renderRoute();
  };

  const refresh = (): void => {
    const op = operation.value as Operation;
    oldPane.hidden = op === "create";
    const gates: FeatureGates = Object.fromEntries([...gateBoxes].map(([n, b]) => [n, b.checked]));
    const oldObjects = op === "create" ? [] : readDocuments(old.state.doc.toString()).objects.map((o) => o.object);
    render(
      analyze(input.state.doc.toString(), {
        operation: op,
        namespace: namespace.value,
        featureGates: gates,
        old: oldObjects,
      }),
    );
    saveHash();
    root.dataset["pending"] = "false";
  };

  let reachTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleReach = (): void => {
    if (reachTimer !== undefined) clearTimeout(reachTimer);
    reachTimer = setTimeout(() => {
      reachTimer = undefined;
      renderReach();
      saveHash();
    }, DEBOUNCE_MS);
  };
  reachTable.addEventListener("keydown", (ev) => {
    const b = ev.target as HTMLElement;
    if (b.dataset["row"] === undefined) return;
    const n = reachTable.tBodies[0]?.rows.length ?? 0;
    let r = Number(b.dataset["row"]);
    let c = Number(b.dataset["col"]);
    if (ev.key === "ArrowRight") c = Math.min(c + 1, n - 1);
    else if (ev.key === "ArrowLeft") c = Math.max(c - 1, 0);
    else if (ev.key === "ArrowDown") r = Math.min(r + 1, n - 1);
    else if (ev.key === "ArrowUp") r = Math.max(r - 1, 0);
    else if (ev.key === "Home") c = 0;
    else if (ev.key === "End") c = n - 1;
    else return;
    ev.preventDefault();
    const next = reachTable.querySelector<HTMLButtonElement>(`button[data-row="${r}"][data-col="${c}"]`);
    if (next === null) return;
    b.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  reachInput.addEventListener("input", scheduleReach);
  reachPort.addEventListener("input", scheduleReach);
  reachProtocol.addEventListener("change", scheduleReach);

  operation.addEventListener("change", schedule);
  namespace.addEventListener("input", schedule);
  for (const box of gateBoxes.values()) box.addEventListener("change", schedule);
  for (const el of [routeHost, routePath]) {
    el.addEventListener("input", () => {
      renderRoute();
      saveHash();
    });
  }
  routeController.addEventListener("change", () => {
    controller = routeController.value;
    renderRoute();
    saveHash();
  });

  // Tabs, as the ARIA tabs pattern has them: arrows, Home and End move and select.
  for (const t of tabs) {
    t.addEventListener("click", () => {
      selectTab(t.dataset["tab"] as Tab, true);
      saveHash();
    });
    t.addEventListener("keydown", (ev) => {
      const at = TABS.indexOf(tab);
      let next: number | undefined;
      if (ev.key === "ArrowRight") next = (at + 1) % TABS.length;
      else if (ev.key === "ArrowLeft") next = (at + TABS.length - 1) % TABS.length;
      else if (ev.key === "Home") next = 0;
      else if (ev.key === "End") next = TABS.length - 1;
      if (next === undefined) return;
      ev.preventDefault();
      selectTab(TABS[next]!, true);
      saveHash();
    });
  }

  // A .pb file, chosen or dropped, is decoded and shown as YAML.
  const pbStatus = byId<HTMLParagraphElement>("pb-status");
  const openPb = async (file: File): Promise<void> => {
    try {
      const obj = decode(new Uint8Array(await file.arrayBuffer()));
      setText(input, toYaml(obj));
      pbStatus.textContent = `Decoded ${file.name}.`;
    } catch (e) {
      pbStatus.textContent = `${file.name}: ${e instanceof DecodeError ? e.message : String(e)}`;
    }
  };
  pbFile.addEventListener("change", () => {
    const file = pbFile.files?.[0];
    if (file !== undefined) void openPb(file);
    pbFile.value = "";
  });
  inputHost.addEventListener("dragover", (ev) => {
    if (ev.dataTransfer?.types.includes("Files") !== true) return;
    ev.preventDefault();
    inputHost.classList.add("dragging");
  });
  inputHost.addEventListener("dragleave", () => inputHost.classList.remove("dragging"));
  inputHost.addEventListener("drop", (ev) => {
    const file = ev.dataTransfer?.files[0];
    inputHost.classList.remove("dragging");
    if (file === undefined) return;
    ev.preventDefault();
    void openPb(file);
  });

  byId<HTMLButtonElement>("share").addEventListener("click", () => {
    saveHash();
    void hashWrite.then(() => navigator.clipboard?.writeText(location.href)).catch(() => undefined);
  });

  renderReach();
  refresh();
  await hashWrite;
  root.dataset["ready"] = "true";
}

start().catch((e: unknown) => {
  const fatal = document.getElementById("fatal");
  if (fatal !== null) {
    fatal.textContent = `The playground failed to start: ${e instanceof Error ? e.message : String(e)}`;
    fatal.hidden = false;
  }
});
