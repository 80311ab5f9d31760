ALTER TABLE "billing_accounts" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
-- hand-written (ADR 055): billing belongs to the organization. Under the platform scope, as the
-- tables' row-level security asks of an owner that is not a superuser.
SELECT set_config('app.platform_scope', 'on', true);--> statement-breakpoint
-- The grace period's jobs still queued name the billing account, no longer a person.
UPDATE "jobs" SET "payload" = ("jobs"."payload" - 'userId') || jsonb_build_object('accountId', b."id"::text)
FROM "billing_accounts" b
WHERE "jobs"."name" IN ('billing.grace-end', 'billing.grace-reminder')
  AND "jobs"."state" IN ('queued', 'running')
  AND "jobs"."organization_id" = b."organization_id"
  AND "jobs"."payload"->>'userId' = b."user_id"::text;--> statement-breakpoint
-- Agency Pro's account, held by the admin who bought it, becomes the agency's: per agency the
-- row of an agency admin (or of Agency Pro), a live one first, then the latest changed.
UPDATE "billing_accounts" SET "user_id" = NULL, "updated_at" = now()
WHERE "id" IN (
  SELECT DISTINCT ON (b."organization_id") b."id"
  FROM "billing_accounts" b
  JOIN "users" u ON u."organization_id" = b."organization_id" AND u."id" = b."user_id"
  WHERE u."role" = 'agency_admin' OR b."plan" = 'agency_pro'
  ORDER BY b."organization_id", (b."status" <> 'canceled') DESC, (b."plan" = 'agency_pro') DESC, b."updated_at" DESC
);--> statement-breakpoint
SELECT set_config('app.platform_scope', '', true);--> statement-breakpoint
CREATE UNIQUE INDEX "billing_accounts_one_per_organization" ON "billing_accounts" USING btree ("organization_id") WHERE "billing_accounts"."user_id" is null;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_org_customer_key" UNIQUE("organization_id","stripe_customer_id");
