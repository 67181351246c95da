import { describe, expect, it } from "vitest";
import { connectivityDiffDot, connectivityListDot } from "../../../src/connectivity/report/dot.js";
import { connectivityDiffJson, connectivityListJson } from "../../../src/connectivity/report/json.js";
import { connectivityDiffMarkdown, connectivityListMarkdown } from "../../../src/connectivity/report/markdown.js";
import {
  DIFF_REPORT_FORMATS,
  LIST_REPORT_FORMATS,
  renderConnectivityDiff,
  renderConnectivityList,
  type DiffReportFormat,
  type ListReportFormat,
} from "../../../src/connectivity/report/render.js";
import { connectivityDiffSarifRun, sarifLog } from "../../../src/connectivity/report/sarif.js";
import { connectivityDiffText, connectivityListText } from "../../../src/connectivity/report/text.js";
import { analyzeConnectivity, diffConnectivity } from "../../../src/networking/index.js";
import { SHOP_AFTER, SHOP_BEFORE } from "../../support/connectivity-sample.js";

describe("renderConnectivityList", () => {
  const analysis = analyzeConnectivity(SHOP_BEFORE);
  const lines = analysis.lines();

  it("gives each format's report, the analysis passed on where a format uses it", () => {
    const expected: Record<ListReportFormat, string> = {
      text: connectivityListText(lines),
      json: `${JSON.stringify(connectivityListJson(lines, { analysis }), null, 2)}\n`,
      md: connectivityListMarkdown(lines, { title: "T", maxLength: 1000 }),
      dot: connectivityListDot(lines, { workloads: analysis.workloads }),
    };
    expect(LIST_REPORT_FORMATS).toEqual(Object.keys(expected));
    for (const format of LIST_REPORT_FORMATS) {
      expect(renderConnectivityList(lines, format, { analysis, title: "T", maxLength: 1000 })).toBe(expected[format]);
    }
    expect(JSON.parse(renderConnectivityList(lines, "json")).lines[0].why).toBeUndefined();
  });

  it("refuses another format", () => {
    expect(() => renderConnectivityList(lines, "sarif" as ListReportFormat)).toThrow(
      /unknown report format "sarif": expected one of text, json, md, dot/,
    );
  });
});

describe("renderConnectivityDiff", () => {
  const diff = diffConnectivity(SHOP_BEFORE, SHOP_AFTER);

  it("gives each format's report", () => {
    const locate = () => ({ file: "a.yaml", line: 1 });
    const expected: Record<DiffReportFormat, string> = {
      text: connectivityDiffText(diff),
      json: `${JSON.stringify(connectivityDiffJson(diff), null, 2)}\n`,
      md: connectivityDiffMarkdown(diff, { title: "T" }),
      sarif: `${JSON.stringify(sarifLog([connectivityDiffSarifRun(diff, { locate, toolVersion: "1.0.0" })]), null, 2)}\n`,
      dot: connectivityDiffDot(diff),
    };
    expect(DIFF_REPORT_FORMATS).toEqual(Object.keys(expected));
    for (const format of DIFF_REPORT_FORMATS) {
      expect(renderConnectivityDiff(diff, format, { title: "T", locate, toolVersion: "1.0.0" })).toBe(expected[format]);
    }
  });

  it("refuses another format", () => {
    expect(() => renderConnectivityDiff(diff, "html" as DiffReportFormat)).toThrow(RangeError);
  });
});
