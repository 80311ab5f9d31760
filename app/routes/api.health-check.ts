// The first name of the readiness check, kept: the Docker HEALTHCHECK, the home page's database
// warning and existing load-balancer settings ask here (ADR 097).
export { loader } from './api.health.ready'
