/** `npm run size`: prints the browser bundle sizes of clusterwire/networking as a Markdown table. */
import { SIZE_ENTRIES, measure } from "./sizes.js";

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

console.log("| Bundle (imports) | Minified | Gzipped (level 9) | Budget (gzipped) |");
console.log("|---|---:|---:|---:|");
let over = 0;
for (const entry of SIZE_ENTRIES) {
  const m = measure(entry);
  if (m.gzipped > entry.budget) over++;
  console.log(
    `| ${entry.name} | ${kb(m.minified)} (${m.minified} B) | ${kb(m.gzipped)} (${m.gzipped} B) | ${kb(entry.budget)}${m.gzipped > entry.budget ? " **over**" : ""} |`,
  );
}
console.log("");
for (const entry of SIZE_ENTRIES) console.log(`- ${entry.name}: ${entry.why}`);
if (over > 0) {
  console.error(`${over} bundle(s) over budget`);
  process.exitCode = 1;
}
