CREATE TYPE "public"."data_export_state" AS ENUM('queued', 'running', 'ready', 'failed');--> statement-breakpoint
CREATE TABLE "data_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"state" "data_export_state" DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"zip" "bytea",
	"byte_size" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "data_exports_org_id_key" UNIQUE("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_fk" FOREIGN KEY ("organization_id","user_id") REFERENCES "public"."users"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_exports_org_user_created_idx" ON "data_exports" USING btree ("organization_id","user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "data_exports_one_pending_per_user" ON "data_exports" USING btree ("organization_id","user_id") WHERE "data_exports"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "data_exports_org_expires_idx" ON "data_exports" USING btree ("organization_id","expires_at") WHERE "data_exports"."expires_at" is not null;--> statement-breakpoint
-- hand-written: personal data exports (ADR 052)
ALTER TABLE "data_exports" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "data_exports" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "data_exports_tenant_isolation" ON "data_exports" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "data_exports" TO brandcard_app;
