// Liveness (ADR 097): 200 whenever the process's event loop gets to answer. No database, no
// disk: a supervisor restarts a process that fails this, and a database outage or a shutdown is
// no reason to (readiness, /api/health/ready, says those). Never stored by the page cache, by
// any proxy, or by the browser: a stale "alive" is the one wrong answer.
export function loader() {
  return Response.json({ status: 'alive' }, { headers: { 'Cache-Control': 'no-store' } })
}
