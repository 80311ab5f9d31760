-- The job worker wakes itself (issue 40 point 3, ADR 063): a job queued, or a finished
-- or dead one queued again, announces its kind on the channel `brandcard_jobs`. Every app
-- process's worker LISTENs and starts the lane that takes that kind at once instead of at its
-- next poll. NOTIFY is delivered at commit, never for a rolled-back transaction (whose jobs do
-- not exist), and Postgres folds repeats of one kind within a transaction into one: a fan-out
-- of five hundred emails wakes the email lane once. Jobs queued by other triggers (the wallet
-- refreshes of migrations 0019 and 0020) announce themselves the same way. pg_notify needs no
-- privilege, so it works for the app login under row-level security like any insert.
CREATE FUNCTION "brandcard_notify_job"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('brandcard_jobs', NEW."name");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "jobs_notify_queued" AFTER INSERT ON "jobs" FOR EACH ROW WHEN (NEW."state" = 'queued') EXECUTE FUNCTION "brandcard_notify_job"();--> statement-breakpoint
-- A job run again by hand or by its caller (a CRM forward retried, requeueJobByKey). A retry the
-- worker schedules itself is not announced: the worker that wrote it knows when it is due.
CREATE TRIGGER "jobs_notify_requeued" AFTER UPDATE OF "state" ON "jobs" FOR EACH ROW WHEN (OLD."state" IN ('done', 'dead') AND NEW."state" = 'queued') EXECUTE FUNCTION "brandcard_notify_job"();
