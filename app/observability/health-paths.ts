// The health checks' paths (ADR 097), named once: server.ts answers readiness 503 from the first
// moment of a shutdown, maintenance mode leaves all three open, and the page cache never keeps
// liveness.

/** 200 whenever the process answers: what a supervisor restarts on. */
export const LIVENESS_PATH = '/api/health/live'
/** 200 when this process should get requests: what a load balancer routes on. */
export const READINESS_PATH = '/api/health/ready'
/** Readiness's first name, kept for the Docker HEALTHCHECK and existing settings. */
export const LEGACY_HEALTH_PATH = '/api/health-check'

export const isReadinessPath = (path: string) =>
  path === READINESS_PATH || path === LEGACY_HEALTH_PATH

export const isHealthPath = (path: string) => path === LIVENESS_PATH || isReadinessPath(path)
