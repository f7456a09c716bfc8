# Baton in a container (decision 227). The runtime stage's steps are the README's production install,
# and CI runs them, COPY and RUN in order, in a clean directory and starts the result
# (tests/faults/production-install.test.ts): keep the two the same.

# --- build: the whole tree with the development packages, then `npm run build`
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# --- runtime: the built tree and the runtime packages only; no build tools, no sources
FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY drizzle ./drizzle
COPY scripts/ensure-build.mjs scripts/start.mjs ./scripts/
RUN mkdir -p /app/data && chown node:node /app/data
USER node
ENV DATA_DIR=/app/data PORT=3000 HOST=0.0.0.0
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm start` checks the build first, which a tree without sources skips; node directly receives SIGTERM.
CMD ["node", "dist/server/main.js"]
