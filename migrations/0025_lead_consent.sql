CREATE TABLE "consent_texts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_texts_org_version_key" UNIQUE("organization_id","version"),
	CONSTRAINT "consent_texts_org_id_key" UNIQUE("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "consent_text_id" uuid;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "consent_given_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "consent_page" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "data_token_hash" text;--> statement-breakpoint
ALTER TABLE "consent_texts" ADD CONSTRAINT "consent_texts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_consent_text_fk" FOREIGN KEY ("organization_id","consent_text_id") REFERENCES "public"."consent_texts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_data_token_hash_idx" ON "contacts" USING btree ("organization_id","data_token_hash") WHERE "contacts"."data_token_hash" is not null;--> statement-breakpoint
-- hand-written: consent texts (ADR 050, consent that follows the lead)
ALTER TABLE "consent_texts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "consent_texts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "consent_texts_tenant_isolation" ON "consent_texts" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "consent_texts" TO brandcard_app;--> statement-breakpoint
-- A new version shows on every cached card page of the agency (its lead form): the page cache
-- drops them (ADR 021).
CREATE TRIGGER "consent_texts_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "consent_texts" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();
