// Text that replaces a selection, typed or inserted, applied by the editor
// instead of by the browser.
//
// CodeMirror lets the browser's contenteditable insert typed text, then reads
// the change back from the DOM. When the text replaces a selection, Chrome
// first deletes the selection with its own editing commands, and those keep
// the look of the deleted text for what is typed next: they write it as a
// style attribute (`style="color: rgb(0, 0, 204)"`, the colour of a
// highlighted YAML key) on the line the text goes into. The page's Content
// Security Policy (style-src 'self') forbids style attributes, so each such
// edit logged a `style-src-attr` violation. CodeMirror then redraws the line
// without the attribute, so only the console showed it.
//
// Here the `beforeinput` event of such an edit is cancelled and the same
// replacement is dispatched as a CodeMirror transaction, which the editor
// draws with classes only. Only non-composing insertions over a non-empty
// range are taken: a collapsed cursor makes the browser delete nothing (so it
// keeps no style), and an input method's composition is left to CodeMirror.
import type { Extension, Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

/** The input types whose text replaces the event's target range. */
const REPLACING = new Set(["insertText", "insertReplacementText"]);

/** The text a `beforeinput` event inserts, or undefined when it carries none. */
function insertedText(event: InputEvent): string | undefined {
  if (event.data !== null) return event.data;
  const t = event.dataTransfer?.getData("text/plain");
  return t === undefined || t === "" ? undefined : t;
}

/** A DOM range's ends as document positions, when both lie in the editor's content. */
function docRange(
  view: EditorView,
  a: Node | null,
  aOffset: number,
  b: Node | null,
  bOffset: number,
): { from: number; to: number } | undefined {
  if (a === null || b === null || !view.contentDOM.contains(a) || !view.contentDOM.contains(b)) return undefined;
  const x = view.posAtDOM(a, aOffset);
  const y = view.posAtDOM(b, bOffset);
  return { from: Math.min(x, y), to: Math.max(x, y) };
}

/** The selection of the editor's root (a shadow root here: Chrome and Safari give it its own). */
function rootSelection(view: EditorView): Selection | null {
  const root = view.root as DocumentOrShadowRoot & { getSelection?: () => Selection | null };
  return typeof root.getSelection === "function" ? root.getSelection() : document.getSelection();
}

/**
 * The document range the browser would replace: the event's target range
 * (Chrome gives none inside a shadow root), else the DOM selection, else the
 * editor's own selection. Undefined when the browser would only insert.
 */
function targetRange(view: EditorView, event: InputEvent): { from: number; to: number } | undefined {
  let range: { from: number; to: number } | undefined;
  const target = event.getTargetRanges()[0];
  if (target !== undefined)
    range = docRange(view, target.startContainer, target.startOffset, target.endContainer, target.endOffset);
  if (range === undefined) {
    const sel = rootSelection(view);
    if (sel !== null && sel.rangeCount > 0)
      range = docRange(view, sel.anchorNode, sel.anchorOffset, sel.focusNode, sel.focusOffset);
  }
  range ??= view.state.selection.main;
  return range.from === range.to ? undefined : { from: range.from, to: range.to };
}

/**
 * The editor extension: text typed or inserted over a selection is applied
 * as a transaction (user event "input.type", as CodeMirror's own typing is,
 * so undo grouping and indent-on-input treat it alike), never by the browser.
 */
export const replaceSelectionInput: Extension = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (!REPLACING.has(event.inputType) || event.isComposing || view.composing || !event.cancelable) return false;
    if (view.state.readOnly) return false;
    const text = insertedText(event);
    if (text === undefined) return false;
    const range = targetRange(view, event);
    if (range === undefined) return false;
    const { state } = view;
    const main = state.selection.main;
    const spec =
      main.from === range.from && main.to === range.to
        ? // The selection itself (every range of it, as CodeMirror types into each).
          state.replaceSelection(text)
        : {
            changes: { from: range.from, to: range.to, insert: text },
            selection: { anchor: range.from + state.toText(text).length },
          };
    const insert = (): Transaction => state.update(spec, { userEvent: "input.type", scrollIntoView: true });
    // Input handlers (none here today) see it as they see any typed text.
    const handled = state
      .facet(EditorView.inputHandler)
      .some((h) => state.selection.ranges.length === 1 && h(view, range.from, range.to, text, insert));
    if (!handled) view.dispatch(insert());
    return true;
  },
});
