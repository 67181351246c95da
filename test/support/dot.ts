// A reader for the DOT the connectivity reports write (digraph, subgraphs, node, edge and graph
// attribute statements, attribute lists, quoted and bare ids), strict enough that a missing quote,
// an unescaped quote, an unbalanced brace or a stray token fails the test that uses it.
import { expect } from "vitest";

export interface DotNode {
  readonly id: string;
  readonly attributes: Readonly<Record<string, string>>;
  /** The subgraph it was declared in, if any. */
  readonly subgraph: string | undefined;
}
export interface DotEdge {
  readonly from: string;
  readonly to: string;
  readonly attributes: Readonly<Record<string, string>>;
}
export interface DotGraph {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly subgraphs: ReadonlyMap<string, Readonly<Record<string, string>>>;
  readonly nodes: readonly DotNode[];
  readonly edges: readonly DotEdge[];
}

type Token = { readonly type: "id"; readonly text: string } | { readonly type: "punct"; readonly text: string };

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (text.startsWith("->", i)) {
      out.push({ type: "punct", text: "->" });
      i += 2;
    } else if ("{}[];,=".includes(c)) {
      out.push({ type: "punct", text: c });
      i++;
    } else if (c === '"') {
      let s = "";
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted string");
        const d = text[i]!;
        if (d === '"') break;
        if (d === "\\") {
          const e = text[i + 1];
          if (e === undefined) throw new Error("a backslash ends the text");
          // \" and \\ stand for themselves; \n (and the like) is kept as written, a label escape.
          s += e === '"' || e === "\\" ? e : `\\${e}`;
          i += 2;
        } else {
          s += d;
          i++;
        }
      }
      i++;
      out.push({ type: "id", text: s });
    } else {
      const m = /^[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*|^-?(?:\.\d+|\d+(?:\.\d*)?)/.exec(text.slice(i));
      if (m === null) throw new Error(`unexpected ${JSON.stringify(c)} at ${i}`);
      out.push({ type: "id", text: m[0] });
      i += m[0].length;
    }
  }
  return out;
}

/** The graph the text describes; throws on anything this reader does not expect. */
export function parseDot(text: string): DotGraph {
  const ts = tokens(text);
  let at = 0;
  const peek = () => ts[at];
  const take = (punct?: string): Token => {
    const t = ts[at++];
    if (t === undefined) throw new Error("the text ends early");
    if (punct !== undefined && (t.type !== "punct" || t.text !== punct)) {
      throw new Error(`expected ${punct}, got ${JSON.stringify(t.text)}`);
    }
    return t;
  };
  const id = (): string => {
    const t = take();
    if (t.type !== "id") throw new Error(`expected an id, got ${t.text}`);
    return t.text;
  };
  const attributeList = (): Record<string, string> => {
    const out: Record<string, string> = {};
    take("[");
    while (peek()?.text !== "]" || peek()?.type !== "punct") {
      const key = id();
      take("=");
      out[key] = id();
      if (peek()?.type === "punct" && peek()?.text === ",") take(",");
    }
    take("]");
    return out;
  };
  const nodes: DotNode[] = [];
  const edges: DotEdge[] = [];
  const subgraphs = new Map<string, Record<string, string>>();
  const graphAttributes: Record<string, string> = {};
  const statements = (subgraph: string | undefined, attributes: Record<string, string>): void => {
    take("{");
    while (!(peek()?.type === "punct" && peek()?.text === "}")) {
      const first = id();
      if (first === "subgraph") {
        const name = id();
        const own: Record<string, string> = {};
        subgraphs.set(name, own);
        statements(name, own);
      } else if (first === "node" || first === "edge" || first === "graph") {
        attributeList();
      } else if (peek()?.type === "punct" && peek()?.text === "=") {
        take("=");
        attributes[first] = id();
      } else if (peek()?.type === "punct" && peek()?.text === "->") {
        take("->");
        const to = id();
        edges.push({ from: first, to, attributes: peek()?.text === "[" ? attributeList() : {} });
      } else {
        nodes.push({ id: first, attributes: peek()?.text === "[" ? attributeList() : {}, subgraph });
      }
      if (peek()?.type === "punct" && peek()?.text === ";") take(";");
    }
    take("}");
  };
  expect(id()).toBe("digraph");
  const name = id();
  statements(undefined, graphAttributes);
  if (at !== ts.length) throw new Error(`text after the graph: ${ts[at]?.text}`);
  return { name, attributes: graphAttributes, subgraphs, nodes, edges };
}
