// What the page opens with: an IngressClass, an Ingress with a mistake (to
// show an error), and one the API server admits; and the stored Ingress
// an update is checked against.

export const SAMPLE_INPUT = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx-public
spec:
  controller: k8s.io/ingress-nginx
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: promo
  namespace: shop
spec:
  ingressClassName: nginx-public
  rules:
    - host: promo.example.com
      http:
        paths:
          - path: deals
            pathType: Prefix
            backend:
              service:
                name: promo
                port:
                  number: 80
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: shop
  namespace: shop
spec:
  ingressClassName: nginx-public
  rules:
    - host: shop.example.com
      http:
        paths:
          - path: /cart
            pathType: Prefix
            backend:
              service:
                name: cart
                port:
                  number: 8080
          - path: /
            pathType: Prefix
            backend:
              service:
                name: storefront
                port:
                  name: http
`;

export const SAMPLE_OLD = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: shop
  namespace: shop
spec:
  ingressClassName: nginx-public
  rules:
    - host: shop.example.com
      http:
        paths:
          - path: /cart
            pathType: Prefix
            backend:
              service:
                name: cart
                port:
                  number: 8080
`;

/** A small cluster for the Reach pane: the shop denies everything but the web tier's port 8080. */
export const SAMPLE_CLUSTER = `namespaces:
  - name: shop
  - name: edge
pods:
  - namespace: edge
    name: proxy
    labels: { app: proxy }
    ip: 10.0.0.10
  - namespace: shop
    name: web
    labels: { app: web }
    ip: 10.0.1.10
    ports:
      - name: http
        containerPort: 8080
  - namespace: shop
    name: db
    labels: { app: db }
    ip: 10.0.1.20
policies:
  - metadata: { name: default-deny, namespace: shop }
    spec:
      podSelector: {}
      policyTypes: [Ingress]
  - metadata: { name: web-from-edge, namespace: shop }
    spec:
      podSelector: { matchLabels: { app: web } }
      ingress:
        - ports: [{ port: 8080 }]
`;
