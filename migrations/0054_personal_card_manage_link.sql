ALTER TABLE "personal_cards" ADD COLUMN "manage_token_hash" text;--> statement-breakpoint
ALTER TABLE "personal_cards" ADD COLUMN "manage_link_sent_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "personal_cards_org_manage_token_key" ON "personal_cards" USING btree ("organization_id","manage_token_hash");