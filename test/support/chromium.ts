/**
 * The Chromium the browser tests drive, found as `npm test`'s pretest
 * (scripts/ensure-chromium.mjs, which installs Debian's chromium when it is
 * missing) finds it: CLUSTERWIRE_CHROMIUM if set, else /usr/bin/chromium (or
 * /usr/bin/chromium-browser). CLUSTERWIRE_SKIP_BROWSER=1 skips the tests.
 */
import { DEBIAN_CHROMIUM, findChromium } from "../../scripts/ensure-chromium.mjs";

const found = findChromium();

/** Skip the browser tests (CLUSTERWIRE_SKIP_BROWSER=1). */
export const SKIP_BROWSER: boolean = found.skip;

/** The binary to launch; when it is missing, the path it was expected at. */
export const CHROMIUM: string = found.skip ? (DEBIAN_CHROMIUM[0] ?? "/usr/bin/chromium") : found.path;

// A skipped suite shows in the report without a reason: say it once.
if (SKIP_BROWSER) console.warn("browser tests skipped: CLUSTERWIRE_SKIP_BROWSER=1 (unset it to run them in Chromium)");
