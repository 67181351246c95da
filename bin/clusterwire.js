#!/usr/bin/env node
// Thin shim so the package's bin runs the compiled CLI.
import { main } from "../dist/src/cli/main.js";

await main();
