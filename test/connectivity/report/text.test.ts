import { describe, expect, it } from "vitest";
import { connectivityDiffText, connectivityListText } from "../../../src/connectivity/report/text.js";
import { analyzeConnectivity, diffConnectivity } from "../../../src/networking/index.js";
import { ONE_WORKLOAD, SHOP_AFTER, SHOP_BEFORE, TWO_WORKLOADS } from "../../support/connectivity-sample.js";

const ALL = "0.0.0.0/0,::/0";

describe("connectivityListText", () => {
  it("writes FROM => TO : CONNECTIONS per line, in the list's order", () => {
    expect(connectivityListText(analyzeConnectivity(SHOP_BEFORE).lines())).toBe(
      [
        "shop/Deployment/web => shop/Deployment/api : TCP 8080",
        "shop/Deployment/web => shop/StatefulSet/db : All connections",
        `shop/Deployment/web => ${ALL} : All connections`,
        "shop/Deployment/api => shop/Deployment/web : All connections",
        "shop/Deployment/api => shop/StatefulSet/db : All connections",
        `shop/Deployment/api => ${ALL} : All connections`,
        "shop/StatefulSet/db => shop/Deployment/web : All connections",
        `shop/StatefulSet/db => ${ALL} : All connections`,
        `${ALL} => shop/Deployment/web : All connections`,
        `${ALL} => shop/StatefulSet/db : All connections`,
        "",
      ].join("\n"),
    );
  });

  it("writes nothing for no line", () => {
    expect(connectivityListText([])).toBe("");
  });
});

describe("connectivityDiffText", () => {
  it("marks each change, with why before and after under it, and ends with the counts", () => {
    expect(connectivityDiffText(diffConnectivity(SHOP_BEFORE, SHOP_AFTER))).toBe(
      [
        "~ shop/Deployment/web => shop/Deployment/api : TCP 8080 -> TCP 8080,9090",
        "    before: egress not isolated; ingress allowed by shop/api-in ingress[0]",
        "    after: egress not isolated; ingress allowed by shop/api-in ingress[0]",
        "- shop/Deployment/web => shop/StatefulSet/db : All connections",
        "    before: egress not isolated; ingress not isolated",
        "    after: ingress denied, isolated by shop/db-in",
        "~ shop/Deployment/api => shop/StatefulSet/db : All connections -> TCP 5432",
        "    before: egress not isolated; ingress not isolated",
        "    after: egress not isolated; ingress allowed by shop/db-in ingress[0]",
        `- ${ALL} => shop/StatefulSet/db : All connections`,
        "    before: egress not isolated; ingress not isolated",
        "    after: ingress denied, isolated by shop/db-in",
        "0 connections added, 2 removed, 2 changed; 0 workloads added, 0 removed.",
        "",
      ].join("\n"),
    );
  });

  it("says which workload did not exist yet, and lists the workloads added", () => {
    const notYet = "    before: shop/Deployment/api did not exist yet";
    const open = "    after: egress not isolated; ingress not isolated";
    expect(connectivityDiffText(diffConnectivity(ONE_WORKLOAD, TWO_WORKLOADS))).toBe(
      [
        "+ shop/Deployment/web => shop/Deployment/api : All connections",
        notYet,
        open,
        "+ shop/Deployment/api => shop/Deployment/web : All connections",
        notYet,
        open,
        `+ shop/Deployment/api => ${ALL} : All connections`,
        notYet,
        open,
        `+ ${ALL} => shop/Deployment/api : All connections`,
        notYet,
        open,
        "+ workload shop/Deployment/api",
        "4 connections added, 0 removed, 0 changed; 1 workload added, 0 removed.",
        "",
      ].join("\n"),
    );
  });

  it("says which workload no longer exists, and lists the workloads removed", () => {
    const text = connectivityDiffText(diffConnectivity(TWO_WORKLOADS, ONE_WORKLOAD));
    expect(text.split("\n").slice(0, 3)).toEqual([
      "- shop/Deployment/web => shop/Deployment/api : All connections",
      "    before: egress not isolated; ingress not isolated",
      "    after: shop/Deployment/api no longer exists",
    ]);
    expect(
      text.endsWith(
        "- workload shop/Deployment/api\n0 connections added, 4 removed, 0 changed; 0 workloads added, 1 removed.\n",
      ),
    ).toBe(true);
  });

  it("says so when nothing changed", () => {
    expect(connectivityDiffText(diffConnectivity(SHOP_BEFORE, SHOP_BEFORE))).toBe("No connectivity change.\n");
  });
});
