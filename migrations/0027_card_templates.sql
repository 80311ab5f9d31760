CREATE TABLE "card_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"team_id" uuid,
	"background_kind" "background_kind" DEFAULT 'color' NOT NULL,
	"background_value" text DEFAULT '#ffffff' NOT NULL,
	"use_agency_logo" boolean DEFAULT false NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"address_street" text DEFAULT '' NOT NULL,
	"address_city" text DEFAULT '' NOT NULL,
	"address_region" text DEFAULT '' NOT NULL,
	"address_postal_code" text DEFAULT '' NOT NULL,
	"address_country" text DEFAULT '' NOT NULL,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"modes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_templates_org_id_key" UNIQUE("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "template_id" uuid;--> statement-breakpoint
ALTER TABLE "card_templates" ADD CONSTRAINT "card_templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_templates" ADD CONSTRAINT "card_templates_team_fk" FOREIGN KEY ("organization_id","team_id") REFERENCES "public"."teams"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_templates_one_default" ON "card_templates" USING btree ("organization_id") WHERE "card_templates"."team_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "card_templates_one_per_team" ON "card_templates" USING btree ("organization_id","team_id") WHERE "card_templates"."team_id" is not null;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD CONSTRAINT "digital_cards_template_fk" FOREIGN KEY ("organization_id","template_id") REFERENCES "public"."card_templates"("organization_id","id") ON DELETE SET NULL ("template_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "digital_cards_org_template_idx" ON "digital_cards" USING btree ("organization_id","template_id") WHERE "digital_cards"."template_id" is not null;--> statement-breakpoint
-- hand-written: card templates (ADR 048)
-- A deleted template (or its team) frees its cards: only template_id is cleared, never the
-- card's organization_id (the column list of ON DELETE SET NULL, Postgres 15), edited above by
-- hand because drizzle-kit cannot write it.
ALTER TABLE "card_templates" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "card_templates" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "card_templates_tenant_isolation" ON "card_templates" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "card_templates" TO brandcard_app;
