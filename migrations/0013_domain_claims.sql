ALTER TABLE "organizations" DROP CONSTRAINT "organizations_custom_domain_unique";--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "custom_domain_claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_verified_custom_domain" ON "organizations" USING btree ("custom_domain") WHERE "organizations"."custom_domain_verified_at" is not null;--> statement-breakpoint
CREATE INDEX "organizations_custom_domain_idx" ON "organizations" USING btree ("custom_domain");--> statement-breakpoint
-- Claims made before claims could expire start their 7 days now, not at a time never recorded.
UPDATE "organizations" SET "custom_domain_claimed_at" = now() WHERE "custom_domain" IS NOT NULL;
