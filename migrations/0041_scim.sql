-- Issue 42 point 2 (ADR 089): SCIM 2.0 directory sync. Numbered 0040 so the sso branch keeps 0039.
CREATE TABLE "scim_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"token_id" uuid,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"resource_type" text,
	"resource_id" text,
	"status" integer NOT NULL,
	"request" jsonb,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scim_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"last_four" text NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "scim_tokens_org_id_key" UNIQUE("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "from_directory" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "directory" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "scim_events" ADD CONSTRAINT "scim_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_events" ADD CONSTRAINT "scim_events_token_fk" FOREIGN KEY ("organization_id","token_id") REFERENCES "public"."scim_tokens"("organization_id","id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens_created_by_fk" FOREIGN KEY ("organization_id","created_by_user_id") REFERENCES "public"."users"("organization_id","id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scim_events_org_created_idx" ON "scim_events" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "scim_events_org_status_created_idx" ON "scim_events" USING btree ("organization_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_tokens_hash_key" ON "scim_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "scim_tokens_org_created_idx" ON "scim_tokens" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_org_external_id_key" ON "teams" USING btree ("organization_id","external_id") WHERE "teams"."external_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_org_external_id_key" ON "users" USING btree ("organization_id","external_id") WHERE "users"."external_id" is not null;;--> statement-breakpoint
-- hand-written: the two SCIM tables are tenant rows like their neighbours
ALTER TABLE "scim_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "scim_tokens" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "scim_tokens_tenant_isolation" ON "scim_tokens" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "scim_tokens" TO brandcard_app;--> statement-breakpoint
ALTER TABLE "scim_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "scim_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "scim_events_tenant_isolation" ON "scim_events" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "scim_events" TO brandcard_app;
