// The root field paths the validators start from. A FieldPath never changes,
// so these are built once instead of on every validate() call.

import { FieldPath } from "../model/path.js";

export const METADATA = FieldPath.root("metadata");
export const SPEC = FieldPath.root("spec");
