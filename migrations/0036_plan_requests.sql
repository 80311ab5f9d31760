CREATE TYPE "public"."plan_request_plan" AS ENUM('team_basic', 'team_pro', 'team_member_basic');--> statement-breakpoint
CREATE TYPE "public"."plan_request_status" AS ENUM('pending', 'granted', 'declined', 'withdrawn');--> statement-breakpoint
CREATE TABLE "plan_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"plan" "plan_request_plan" NOT NULL,
	"status" "plan_request_status" DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	CONSTRAINT "plan_requests_org_id_key" UNIQUE("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "plan_requests" ADD CONSTRAINT "plan_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_requests" ADD CONSTRAINT "plan_requests_user_fk" FOREIGN KEY ("organization_id","user_id") REFERENCES "public"."users"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_requests_one_pending_per_user" ON "plan_requests" USING btree ("organization_id","user_id") WHERE "plan_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "plan_requests_org_status_created_idx" ON "plan_requests" USING btree ("organization_id","status","created_at");--> statement-breakpoint
-- hand-written: plan requests (issue 41 point 4, ADR 079)
ALTER TABLE "plan_requests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "plan_requests" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "plan_requests_tenant_isolation" ON "plan_requests" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "plan_requests" TO brandcard_app;
