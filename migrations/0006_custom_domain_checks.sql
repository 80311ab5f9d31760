ALTER TABLE "organizations" ADD COLUMN "custom_domain_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "custom_domain_lost_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "organizations_domain_check_idx" ON "organizations" USING btree ("custom_domain_checked_at") WHERE "organizations"."custom_domain" is not null;