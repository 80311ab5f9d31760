CREATE TABLE "sso_saml_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "saml_entity_id" text;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "saml_sso_url" text;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "saml_certificates" text[];--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "saml_metadata_url" text;--> statement-breakpoint
ALTER TABLE "sso_saml_requests" ADD CONSTRAINT "sso_saml_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_saml_requests" ADD CONSTRAINT "sso_saml_requests_provider_fk" FOREIGN KEY ("organization_id","provider_id") REFERENCES "public"."sso_providers"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_saml_requests_org_created_idx" ON "sso_saml_requests" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_saml_fields" CHECK ("sso_providers"."kind" <> 'saml' or ("sso_providers"."saml_entity_id" is not null and "sso_providers"."saml_sso_url" is not null and cardinality("sso_providers"."saml_certificates") > 0));--> statement-breakpoint
-- hand-written: SAML requests under the tenant policy of every tenant table (issue 42, ADR 090)
ALTER TABLE "sso_saml_requests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sso_saml_requests" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "sso_saml_requests_tenant_isolation" ON "sso_saml_requests" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "sso_saml_requests" TO brandcard_app;
