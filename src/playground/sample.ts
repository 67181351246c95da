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
