# syntax=docker/dockerfile:1
# One image for every role: ROLE=api|projector|relay|all picks what the process runs (docs/production.md).
# Build from the repo root: docker build -t calendar-service:latest .

# --- build: compile TypeScript and better-sqlite3's native addon, then drop the dev dependencies -----------------
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# node-gyp takes Node's headers from the image (/usr/local/include/node) instead of downloading them when
# better-sqlite3 has no prebuilt binary to fetch. SCARF_ANALYTICS: no install-time telemetry from swagger-ui-dist.
ENV npm_config_nodedir=/usr/local SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
# npm install, not npm ci: the lock file lacks other platforms' optional binaries, and npm ci refuses it.
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY contracts ./contracts
COPY services ./services
COPY write-api ./write-api
COPY read-api ./read-api
COPY projections ./projections
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# --- runtime --------------------------------------------------------------------------------------------------------
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# DATA_DIR is created at start by every role; the embedded stores (ROLE=all without engine URLs) write there.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME /data
# No HEALTHCHECK: only the api role serves HTTP (/healthz, /readyz); probes are set per role in compose and k8s.
CMD ["node", "dist/services/main.js"]
