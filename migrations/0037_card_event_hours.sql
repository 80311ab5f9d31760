CREATE TYPE "public"."card_event_kind" AS ENUM('vcard', 'wallet', 'link', 'lead', 'connect');--> statement-breakpoint
CREATE TABLE "card_event_hours" (
	"organization_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"source" "view_source" DEFAULT 'direct' NOT NULL,
	"kind" "card_event_kind" NOT NULL,
	"link_id" text DEFAULT '' NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "card_event_hours_pk" PRIMARY KEY("organization_id","card_id","hour","source","kind","link_id")
);
--> statement-breakpoint
ALTER TABLE "card_event_hours" ADD CONSTRAINT "card_event_hours_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_event_hours" ADD CONSTRAINT "card_event_hours_card_fk" FOREIGN KEY ("organization_id","card_id") REFERENCES "public"."digital_cards"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_event_hours_org_hour_idx" ON "card_event_hours" USING btree ("organization_id","hour");--> statement-breakpoint
-- hand-written: saves, link taps and exchanges per card, hour and source (ADR 082)
ALTER TABLE "card_event_hours" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "card_event_hours" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "card_event_hours_tenant_isolation" ON "card_event_hours" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "card_event_hours" TO brandcard_app;
