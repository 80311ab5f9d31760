CREATE TYPE "public"."card_follower_state" AS ENUM('pending', 'confirmed', 'unsubscribed');--> statement-breakpoint
CREATE TABLE "card_followers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"email" text NOT NULL,
	"state" "card_follower_state" DEFAULT 'pending' NOT NULL,
	"confirm_token_hash" text,
	"confirmed_at" timestamp with time zone,
	"changed_at" timestamp with time zone,
	"last_digest_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_followers_org_id_key" UNIQUE("organization_id","id"),
	CONSTRAINT "card_followers_org_card_email_key" UNIQUE("organization_id","card_id","email")
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "card_followers" ADD CONSTRAINT "card_followers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_followers" ADD CONSTRAINT "card_followers_card_fk" FOREIGN KEY ("organization_id","card_id") REFERENCES "public"."digital_cards"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_followers_org_token_key" ON "card_followers" USING btree ("organization_id","confirm_token_hash");--> statement-breakpoint
-- hand-written: card followers are tenant rows (ADR 102)
ALTER TABLE "card_followers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "card_followers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "card_followers_tenant_isolation" ON "card_followers" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "card_followers" TO brandcard_app;--> statement-breakpoint
-- hand-written: one place decides "a follower should hear of this edit" (ADR 102), whatever
-- wrote the card (the editor, a template, the REST API, SCIM): a change of the title, company,
-- phone, either email or the photo marks the card's confirmed followers and queues the card's
-- digest job, due at once when none went out in the last 24 hours and otherwise when the day
-- since the last one is over. One job per card and transaction; several edits before it runs
-- are one email, because the job sends what the card holds then.
CREATE OR REPLACE FUNCTION "brandcard_card_follow_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "last" timestamp with time zone;
BEGIN
  UPDATE "card_followers" SET "changed_at" = now()
    WHERE "organization_id" = NEW."organization_id" AND "card_id" = NEW."id" AND "state" = 'confirmed';
  IF FOUND THEN
    SELECT max("last_digest_at") INTO "last" FROM "card_followers"
      WHERE "organization_id" = NEW."organization_id" AND "card_id" = NEW."id" AND "state" = 'confirmed';
    INSERT INTO "jobs" ("name", "payload", "organization_id", "idempotency_key", "run_at")
    VALUES (
      'card-follow.digest',
      jsonb_build_object('organizationId', NEW."organization_id", 'cardId', NEW."id"),
      NEW."organization_id",
      'card-follow.digest:' || NEW."id" || ':' || txid_current(),
      greatest(now(), coalesce("last" + interval '24 hours', now()))
    )
    ON CONFLICT ("idempotency_key") DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "digital_cards_follow_change" AFTER UPDATE ON "digital_cards" FOR EACH ROW
  WHEN (
    OLD."job_title" IS DISTINCT FROM NEW."job_title"
    OR OLD."company" IS DISTINCT FROM NEW."company"
    OR OLD."phone_number" IS DISTINCT FROM NEW."phone_number"
    OR OLD."email" IS DISTINCT FROM NEW."email"
    OR OLD."work_email" IS DISTINCT FROM NEW."work_email"
    OR OLD."profile_picture_media_id" IS DISTINCT FROM NEW."profile_picture_media_id"
  )
  EXECUTE FUNCTION "brandcard_card_follow_change"();
