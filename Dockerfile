# syntax=docker/dockerfile:1
# Multi-stage image: build with dev dependencies, run with production dependencies only,
# as a non-root user. Without DATABASE_URL the app runs on the embedded PGlite in /data.
#
#   docker build -t brandcard --build-arg SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) .
#   docker run -p 3000:3000 -v brandcard-data:/data brandcard                  # embedded database
#   docker run -p 3000:3000 -e DATABASE_URL=postgres://user:pass@db:5432/brandcard \
#     -e APP_SECRET=$(openssl rand -base64 32) -e ROOT_DOMAIN=cards.example.com brandcard

FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm install --no-audit --no-fund
COPY . .
# The built commit's date, for the accessibility statement's "last checked" (ADR 100): .git is
# not copied in, so git cannot tell the build.
ARG SOURCE_DATE_EPOCH
RUN npm run build

FROM node:24-bookworm-slim AS production-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    ROOT_DOMAIN=localhost \
    DATA_DIR=/data
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=production-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
# Migrations are read at start-up and must ship beside the build.
COPY --chown=node:node migrations ./migrations
COPY --chown=node:node package.json ./
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health-check').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Our own server (not remix-serve), under its supervisor: the server closes the database on
# SIGTERM, and the supervisor ends it within SHUTDOWN_TIMEOUT_MS even if it cannot (ADR 033).
CMD ["node", "build/supervisor.js"]
