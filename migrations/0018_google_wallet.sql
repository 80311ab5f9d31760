CREATE TABLE "google_wallet_objects" (
	"organization_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"object_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"patched_at" timestamp with time zone,
	CONSTRAINT "google_wallet_objects_pkey" PRIMARY KEY("organization_id","card_id")
);
--> statement-breakpoint
ALTER TABLE "google_wallet_objects" ADD CONSTRAINT "google_wallet_objects_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_wallet_objects" ADD CONSTRAINT "google_wallet_objects_card_fk" FOREIGN KEY ("organization_id","card_id") REFERENCES "public"."digital_cards"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written: google wallet
ALTER TABLE "google_wallet_objects" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "google_wallet_objects" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "google_wallet_objects_tenant_isolation" ON "google_wallet_objects" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too. No change trigger: the table changes
-- no page (ADR 021).
GRANT SELECT, INSERT, UPDATE, DELETE ON "google_wallet_objects" TO brandcard_app;
