# syntax=docker/dockerfile:1
# Model Gateway's image: built in one stage, run from a smaller one as the unprivileged `node` user.
# See docs/operations.md ("Containers").

# Both stages run the oldest Node.js line package.json's engines promise, on the same Debian.
FROM node:20-bookworm-slim AS build
# better-sqlite3 is compiled here from source (its install script would otherwise try a prebuilt binary), against the
# headers this image carries (npm_config_nodedir), so the build downloads nothing but the npm packages.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off for the install: `prepare` would build before the sources are here, and only better-sqlite3's own
# script is needed (the other two packages with one are development tools that need none).
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
# The program's files stay root's, read-only to the server; only the data folder (SQLite database, ledger outbox)
# is the `node` user's. A volume created from the image starts with this folder's owner.
RUN mkdir -p /app/data && chown node:node /app/data
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root examples ./examples
COPY --chown=root:root scripts/healthcheck.mjs ./scripts/healthcheck.mjs
USER node
VOLUME ["/app/data"]
EXPOSE 8080
# /health answers 200 whenever the process serves requests (it reads nothing, not even the database).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
ENTRYPOINT ["node", "dist/main.js"]
CMD ["serve"]
