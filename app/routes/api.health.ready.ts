// Readiness (ADR 096): the health check's answer under the name load balancers are told to ask.
export { loader } from './api.health-check'
