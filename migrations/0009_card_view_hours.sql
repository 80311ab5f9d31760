CREATE TABLE "card_view_hours" (
	"organization_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "card_view_hours_pk" PRIMARY KEY("organization_id","card_id","hour")
);
--> statement-breakpoint
ALTER TABLE "card_view_hours" ADD CONSTRAINT "card_view_hours_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_view_hours" ADD CONSTRAINT "card_view_hours_card_fk" FOREIGN KEY ("organization_id","card_id") REFERENCES "public"."digital_cards"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_org_actor_created_idx" ON "audit_events" USING btree ("organization_id","actor_user_id","created_at");--> statement-breakpoint
-- card_view_hours follows card_views: one statement-level trigger per kind of change adds or
-- takes away each statement's rows grouped by card and UTC hour, so a multi-row insert costs
-- one upsert per card and hour, not one per view. Keys are upserted in order, so two batches
-- that share keys lock them in the same order. The function runs as the caller (brandcard_app
-- under row-level security in a request): the rows it writes are of the caller's tenant.
CREATE FUNCTION "card_view_hours_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE "card_view_hours" h SET "views" = h."views" - o."n"
    FROM (
      SELECT "organization_id", "card_id", date_trunc('hour', "viewed_at", 'UTC') AS "hour", count(*)::int AS "n"
      FROM "old_views" GROUP BY 1, 2, 3
    ) o
    WHERE h."organization_id" = o."organization_id" AND h."card_id" = o."card_id" AND h."hour" = o."hour";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "card_view_hours" ("organization_id", "card_id", "hour", "views")
    SELECT "organization_id", "card_id", date_trunc('hour', "viewed_at", 'UTC'), count(*)::int
    FROM "new_views" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("organization_id", "card_id", "hour")
    DO UPDATE SET "views" = "card_view_hours"."views" + excluded."views";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "card_views_hours_insert" AFTER INSERT ON "card_views" REFERENCING NEW TABLE AS "new_views" FOR EACH STATEMENT EXECUTE FUNCTION "card_view_hours_follow"();--> statement-breakpoint
CREATE TRIGGER "card_views_hours_update" AFTER UPDATE ON "card_views" REFERENCING OLD TABLE AS "old_views" NEW TABLE AS "new_views" FOR EACH STATEMENT EXECUTE FUNCTION "card_view_hours_follow"();--> statement-breakpoint
CREATE TRIGGER "card_views_hours_delete" AFTER DELETE ON "card_views" REFERENCING OLD TABLE AS "old_views" FOR EACH STATEMENT EXECUTE FUNCTION "card_view_hours_follow"();--> statement-breakpoint
ALTER TABLE "card_view_hours" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "card_view_hours" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "card_view_hours_tenant_isolation" ON "card_view_hours" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "card_view_hours" TO brandcard_app;--> statement-breakpoint
-- The views recorded so far. The owner reads every tenant's (row-level security is forced on
-- card_views for a non-superuser owner too), then hands the setting back for this transaction.
SELECT set_config('app.platform_scope', 'on', true);--> statement-breakpoint
INSERT INTO "card_view_hours" ("organization_id", "card_id", "hour", "views")
SELECT "organization_id", "card_id", date_trunc('hour', "viewed_at", 'UTC'), count(*)::int
FROM "card_views" GROUP BY 1, 2, 3;--> statement-breakpoint
SELECT set_config('app.platform_scope', '', true);
