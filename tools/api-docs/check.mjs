// The documentation rule of `npm run docs`, checked on TypeDoc's converted project.
//
// Each entry point has a module comment (`@packageDocumentation`) with an example.
// Each export of an entry point (a function, class, interface, type alias, constant or enum):
// - has a doc comment with a summary ("doc");
// - and at least one `@example` block ("example").
// Each member of an exported interface, class or enum, and of an exported type alias written
// as an object type (a property, method, accessor or enum member), has a doc comment ("doc");
// the export's example shows it in use, so it needs none of its own. Deeper anonymous object
// types (an option's nested shape, a field of a storage model) are documented by the member
// or export that holds them.
//
// Two kinds of export are held to the doc rule but not the example rule:
// - the protobuf message types and schemas generated into gen/ by protoc-gen-es: their doc
//   comments are the proto files' comments (proto/), which the generator carries over; the
//   entry point's module comment shows how they are built with create();
// - what is re-exported unchanged from another package (`create` from @bufbuild/protobuf):
//   documented by that package.
// An export that one entry point re-exports from another (a TypeDoc reference) is checked once.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * @typedef {{ rule: "doc" | "example", entry: string, kind: string, name: string, file: string, line: number }} Problem
 */

/**
 * Walks the converted project: how many exports it has, and each problem with the file and
 * line of its declaration.
 *
 * @param {typeof import("typedoc")} td
 * @param {import("typedoc").ProjectReflection} project
 * @param {string} root the repository root, for file names
 * @returns {{ exports: number, problems: Problem[] }}
 */
export function checkDocumentation(td, project, root) {
  const { ReflectionKind: K } = td;
  let exports = 0;
  /** @type {Problem[]} */
  const problems = [];
  const where = (reflection) => {
    const id = project.getSymbolIdFromReflection(reflection);
    if (id === undefined) return { file: "(unknown file)", line: 0, own: true };
    const own = id.packageName === project.packageName;
    const file = own ? id.packagePath : join("node_modules", id.packageName, id.packagePath);
    return { file, line: own ? lineOf(join(root, file), id.pos) : 0, own };
  };
  const report = (rule, entry, reflection, name) => {
    const { file, line } = where(reflection);
    problems.push({
      rule,
      entry: entry.name,
      kind: K.singularString(reflection.kind),
      name,
      file,
      line,
    });
  };

  for (const entry of project.children ?? []) {
    // The entry point itself: a module comment (`@packageDocumentation`) with an example.
    if (!entry.comment?.summary.some((part) => part.text.trim() !== "")) report("doc", entry, entry, entry.name);
    if ((entry.comment?.getTags("@example").length ?? 0) === 0) report("example", entry, entry, entry.name);
    for (const child of entry.children ?? []) {
      if (child.kindOf(K.Reference)) continue;
      exports++;
      const { file, own } = where(child);
      if (!own) continue;
      const found = comments(child);
      if (!found.some((c) => c.summary.some((part) => part.text.trim() !== "")))
        report("doc", entry, child, child.name);
      const generated = file.startsWith("gen/");
      if (!generated && !found.some((c) => c.getTags("@example").length > 0))
        report("example", entry, child, child.name);

      let members = [];
      if (child.kindOf(K.Interface | K.Class | K.Enum)) members = child.children ?? [];
      else if (child.kindOf(K.TypeAlias) && child.type?.type === "reflection")
        members = child.type.declaration.children ?? [];
      for (const member of members) {
        if (!member.kindOf(K.Property | K.Method | K.Accessor | K.EnumMember)) continue;
        if (member.flags.isPrivate || member.flags.isProtected) continue;
        // Inherited from outside the package (Error's message and stack): documented there.
        if (!where(member).own) continue;
        if (comments(member).length === 0) report("doc", entry, member, `${child.name}.${member.name}`);
      }
    }
  }
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.name.localeCompare(b.name));
  return { exports, problems };
}

/** The comments TypeDoc may hold a declaration's documentation in: its own, its signatures', its accessors'. */
function comments(reflection) {
  const found = [];
  if (reflection.comment) found.push(reflection.comment);
  const signatures = [
    ...(reflection.signatures ?? []),
    ...(reflection.type?.declaration?.signatures ?? []),
    ...(reflection.getSignature ? [reflection.getSignature] : []),
    ...(reflection.setSignature ? [reflection.setSignature] : []),
  ];
  for (const signature of signatures) if (signature.comment) found.push(signature.comment);
  return found;
}

const texts = new Map();
/** The 1-based line of a character offset in a file (TypeDoc keeps the offset; the output has no source links). */
function lineOf(file, pos) {
  let text = texts.get(file);
  if (text === undefined) {
    text = readFileSync(file, "utf8");
    texts.set(file, text);
  }
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < pos; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
