CREATE TYPE "public"."sso_provider_kind" AS ENUM('oidc', 'saml');--> statement-breakpoint
CREATE TABLE "sso_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"verified_at" timestamp with time zone,
	"enforced" boolean DEFAULT false NOT NULL,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_domains_org_id_key" UNIQUE("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "sso_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" "sso_provider_kind" DEFAULT 'oidc' NOT NULL,
	"display_name" text NOT NULL,
	"issuer_url" text,
	"client_id" text,
	"client_secret_sealed" text,
	"jit_role" "user_role" DEFAULT 'end_user' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_providers_org_id_key" UNIQUE("organization_id","id"),
	CONSTRAINT "sso_providers_oidc_fields" CHECK ("sso_providers"."kind" <> 'oidc' or ("sso_providers"."issuer_url" is not null and "sso_providers"."client_id" is not null and "sso_providers"."client_secret_sealed" is not null))
);
--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_provider_fk" FOREIGN KEY ("organization_id","provider_id") REFERENCES "public"."sso_providers"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_org_domain_key" ON "sso_domains" USING btree ("organization_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_verified_domain" ON "sso_domains" USING btree ("domain") WHERE "sso_domains"."verified_at" is not null;--> statement-breakpoint
CREATE INDEX "sso_domains_org_provider_idx" ON "sso_domains" USING btree ("organization_id","provider_id");--> statement-breakpoint
-- hand-written: single sign-on per agency (issue 42 point 1, ADR 088)
ALTER TABLE "sso_providers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sso_providers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "sso_providers_tenant_isolation" ON "sso_providers" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "sso_providers" TO brandcard_app;--> statement-breakpoint
ALTER TABLE "sso_domains" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sso_domains" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "sso_domains_tenant_isolation" ON "sso_domains" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "sso_domains" TO brandcard_app;
