CREATE TABLE "personal_card_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text,
	"offered_by_user_id" uuid,
	"offered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"personal_card_slug" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "personal_card_offers_org_id_key" UNIQUE("organization_id","id"),
	CONSTRAINT "personal_card_offers_org_user_key" UNIQUE("organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "personal_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "personal_cards_org_id_key" UNIQUE("organization_id","id"),
	CONSTRAINT "personal_cards_org_slug_key" UNIQUE("organization_id","slug")
);
--> statement-breakpoint
ALTER TABLE "card_followers" ADD COLUMN "moved_notice_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "personal_card_offers" ADD CONSTRAINT "personal_card_offers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_card_offers" ADD CONSTRAINT "personal_card_offers_user_fk" FOREIGN KEY ("organization_id","user_id") REFERENCES "public"."users"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_cards" ADD CONSTRAINT "personal_cards_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "personal_card_offers_org_token_key" ON "personal_card_offers" USING btree ("organization_id","token_hash");--> statement-breakpoint
-- hand-written: an agency's offers and the platform's personal cards are tenant rows (ADR 103);
-- an agency's transaction sees neither the platform's personal cards nor another agency's offers.
ALTER TABLE "personal_card_offers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "personal_card_offers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "personal_card_offers_tenant_isolation" ON "personal_card_offers" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "personal_card_offers" TO brandcard_app;--> statement-breakpoint
ALTER TABLE "personal_cards" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "personal_cards" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "personal_cards_tenant_isolation" ON "personal_cards" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "personal_cards" TO brandcard_app;
