// The truth-table layout of examples/clusters/shop.yaml as clusterwire reach prints it, for reach and demo tests.

/** The header row: column numbers under `from \\ to`. */
export const HEADER = "from \\ to                                      1 2 3 4 5 6 7 8";
export const LABELS = [
  "1  ingress-nginx/controller-7d9f              ",
  "2  shop/storefront-6c5d                       ",
  "3  shop/catalog-5f7b                          ",
  "4  shop/checkout-84c2                         ",
  "5  data/postgres-0                            ",
  "6  data/opensearch-0                          ",
  "7  kube-system/coredns-5d78                   ",
  "8  kube-system/node-exporter-n1 (hostNetwork) ",
];
export const grid = (rows: string[]): string[] =>
  rows.map((r, i) => `${LABELS[i] ?? ""}${[...r].map((c) => ` ${c}`).join("")}`);
