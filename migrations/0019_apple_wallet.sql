CREATE TABLE "wallet_passes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"viewer_id" uuid,
	"content_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT date_trunc('second', now()) NOT NULL,
	"push_pending" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_passes_org_id_key" UNIQUE("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "wallet_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"pass_id" uuid NOT NULL,
	"device_library_id" text NOT NULL,
	"push_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_card_fk" FOREIGN KEY ("organization_id","card_id") REFERENCES "public"."digital_cards"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_viewer_fk" FOREIGN KEY ("organization_id","viewer_id") REFERENCES "public"."users"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_registrations" ADD CONSTRAINT "wallet_registrations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_registrations" ADD CONSTRAINT "wallet_registrations_pass_fk" FOREIGN KEY ("organization_id","pass_id") REFERENCES "public"."wallet_passes"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_passes_one_per_viewer" ON "wallet_passes" USING btree ("organization_id","card_id","viewer_id") WHERE "wallet_passes"."viewer_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_passes_one_anonymous" ON "wallet_passes" USING btree ("organization_id","card_id") WHERE "wallet_passes"."viewer_id" is null;--> statement-breakpoint
CREATE INDEX "wallet_passes_org_card_idx" ON "wallet_passes" USING btree ("organization_id","card_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_registrations_pass_device_key" ON "wallet_registrations" USING btree ("organization_id","pass_id","device_library_id");--> statement-breakpoint
CREATE INDEX "wallet_registrations_device_idx" ON "wallet_registrations" USING btree ("organization_id","device_library_id");--> statement-breakpoint
-- hand-written: apple wallet
ALTER TABLE "wallet_passes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "wallet_passes" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "wallet_passes_tenant_isolation" ON "wallet_passes" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
ALTER TABLE "wallet_registrations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "wallet_registrations" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "wallet_registrations_tenant_isolation" ON "wallet_registrations" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "wallet_passes" TO brandcard_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "wallet_registrations" TO brandcard_app;--> statement-breakpoint
-- The one place that decides a pass may have changed (ADR 042): every write to what a pass
-- shows or to who may see it queues a `wallet.refresh` job for the passes it concerns, in the
-- writer's transaction, whichever code path wrote it. The job compares each pass's content
-- hash, so a write that changes nothing on the pass (a bio, a link) pushes nothing. One job
-- per scope and transaction: the idempotency key carries the transaction id. Nothing is
-- queued while no pass exists in the scope, so cards nobody put in a wallet cost one index
-- lookup per write.
CREATE FUNCTION "brandcard_wallet_pass_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "r" record;
  "org" uuid;
  "card" uuid;
  "owner" uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN "r" := OLD; ELSE "r" := NEW; END IF;
  IF TG_TABLE_NAME = 'organizations' THEN
    "org" := "r"."id";
  ELSE
    "org" := "r"."organization_id";
  END IF;
  IF TG_TABLE_NAME = 'digital_cards' THEN
    "card" := "r"."id";
  ELSIF TG_TABLE_NAME = 'card_slugs' THEN
    "card" := "r"."card_id";
  ELSIF TG_TABLE_NAME = 'users' THEN
    "owner" := "r"."id";
  ELSIF TG_TABLE_NAME = 'user_settings' THEN
    "owner" := "r"."user_id";
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM "wallet_passes" p JOIN "digital_cards" c
      ON c."organization_id" = p."organization_id" AND c."id" = p."card_id"
    WHERE p."organization_id" = "org"
      AND ("card" IS NULL OR p."card_id" = "card")
      AND ("owner" IS NULL OR c."user_id" = "owner")
  ) THEN
    RETURN NULL;
  END IF;
  INSERT INTO "jobs" ("name", "payload", "organization_id", "idempotency_key")
  VALUES (
    'wallet.refresh',
    jsonb_strip_nulls(jsonb_build_object('organizationId', "org", 'cardId', "card", 'ownerId', "owner")),
    "org",
    'wallet.refresh:' || "org" || ':' || coalesce("card"::text, "owner"::text, '*') || ':' || txid_current()
  )
  ON CONFLICT ("idempotency_key") DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Only writes that change something: an update that sets a column to the value it had is no
-- change (the domain re-check and many saves write whole rows).
CREATE TRIGGER "digital_cards_wallet_pass_change" AFTER UPDATE ON "digital_cards" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "brandcard_wallet_pass_change"();--> statement-breakpoint
CREATE TRIGGER "card_slugs_wallet_pass_change" AFTER INSERT OR UPDATE ON "card_slugs" FOR EACH ROW EXECUTE FUNCTION "brandcard_wallet_pass_change"();--> statement-breakpoint
CREATE TRIGGER "users_wallet_pass_change" AFTER UPDATE OF "status" ON "users" FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "brandcard_wallet_pass_change"();--> statement-breakpoint
CREATE TRIGGER "user_settings_wallet_pass_change" AFTER INSERT OR UPDATE ON "user_settings" FOR EACH ROW EXECUTE FUNCTION "brandcard_wallet_pass_change"();--> statement-breakpoint
-- The agency's name, colours and logo, and whether they show (white labelling). Not its custom
-- domain, which the background re-check flips with DNS: a pass takes the new address at its
-- next refresh.
CREATE TRIGGER "organizations_wallet_pass_change" AFTER UPDATE OF "name", "primary_color", "secondary_color", "logo_media_id", "white_label_active" ON "organizations" FOR EACH ROW WHEN ((OLD."name", OLD."primary_color", OLD."secondary_color", OLD."logo_media_id", OLD."white_label_active") IS DISTINCT FROM (NEW."name", NEW."primary_color", NEW."secondary_color", NEW."logo_media_id", NEW."white_label_active")) EXECUTE FUNCTION "brandcard_wallet_pass_change"();
