CREATE TABLE "sending_domains" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"sender_local_part" text DEFAULT 'hello' NOT NULL,
	"provider_domain_id" text NOT NULL,
	"status" text NOT NULL,
	"records" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"verified_at" timestamp with time zone,
	"lost_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sending_domains_domain_unique" UNIQUE("domain")
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "from_address" text;--> statement-breakpoint
ALTER TABLE "sending_domains" ADD CONSTRAINT "sending_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sending_domains_checked_idx" ON "sending_domains" USING btree ("checked_at");--> statement-breakpoint
ALTER TABLE "sending_domains" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sending_domains" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "sending_domains_tenant_isolation" ON "sending_domains" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "sending_domains" TO brandcard_app;
