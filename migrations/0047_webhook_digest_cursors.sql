CREATE TABLE "webhook_digest_cursors" (
	"organization_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"last_hour" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_digest_cursors_pkey" PRIMARY KEY("organization_id","event_type")
);
--> statement-breakpoint
ALTER TABLE "webhook_digest_cursors" ADD CONSTRAINT "webhook_digest_cursors_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written: the digest cursors are tenant rows like the other webhook tables (ADR 093)
ALTER TABLE "webhook_digest_cursors" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "webhook_digest_cursors" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "webhook_digest_cursors_tenant_isolation" ON "webhook_digest_cursors" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "webhook_digest_cursors" TO brandcard_app;
