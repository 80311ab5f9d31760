CREATE TYPE "public"."card_link_kind" AS ENUM('linkedin', 'x', 'instagram', 'facebook', 'github', 'youtube', 'tiktok', 'whatsapp', 'booking', 'custom');--> statement-breakpoint
CREATE TYPE "public"."phone_type" AS ENUM('mobile', 'work');--> statement-breakpoint
CREATE TABLE "card_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" "card_link_kind" NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_links_org_card_position_key" UNIQUE("organization_id","card_id","position")
);
--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "bio" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "pronouns" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "phone_type" "phone_type" DEFAULT 'mobile' NOT NULL;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "phone2" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "phone2_type" "phone_type" DEFAULT 'work' NOT NULL;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "address_street" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "address_city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "address_region" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "address_postal_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "address_country" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "card_links" ADD CONSTRAINT "card_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_links" ADD CONSTRAINT "card_links_card_fk" FOREIGN KEY ("organization_id","card_id") REFERENCES "public"."digital_cards"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written: card details
ALTER TABLE "card_links" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "card_links" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "card_links_tenant_isolation" ON "card_links" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- A card's links show on its public page: a change drops the cached page (ADR 021).
CREATE TRIGGER "card_links_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "card_links" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "card_links" TO brandcard_app;
