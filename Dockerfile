# clusterwire's admission webhook (and the whole CLI) as an image.
#   docker build -t clusterwire:0.1.0 .
#   docker run --rm clusterwire:0.1.0 webhook serve --help
# The deployment (deploy/30-webhook-server.yaml) runs it as
# `webhook serve --tls-cert /tls/tls.crt --tls-key /tls/tls.key --port 8443 --host '*'`
# (every interface: the default, loopback, is not reachable from outside the pod).

# Build: every dependency, then the TypeScript build.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: the build needs none (esbuild's is for the bundle tests).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only, from the same lockfile.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# Runtime: Node, the compiled package and its production dependencies; no npm
# cache, no sources, no compiler. A numeric non-root user, so Kubernetes'
# runAsNonRoot can check it.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist/src ./dist/src
COPY --from=build /src/dist/gen ./dist/gen
COPY package.json ./
COPY bin ./bin
COPY examples ./examples
USER 65532:65532
EXPOSE 8443
ENTRYPOINT ["node", "/app/dist/src/cli/main.js"]
CMD ["--help"]
